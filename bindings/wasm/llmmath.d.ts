// Types of dist/llmmath.js, the JavaScript API of the project's contract (core-api.md), one
// section per concept. Every function takes and returns plain values; nothing needs .delete().
// Invalid input throws an Error whose message names the parameter
// ("<param> must be <expected>, got <value>").

/** Loads the module (the WebAssembly is embedded in the script) and resolves to its API. */
declare function createLLMMath(): Promise<LLMMath>;

interface LLMMath {
  // ---- rope ----

  /**
   * Rotary position embedding (Su et al. 2021, RoFormer, eq. 34) of query `q` at position `m`
   * and key `k` at position `n`: pair i of each vector turns anticlockwise by pos·θ_i, so
   * `raw` depends only on m − n. `q` and `k` have the same even length d ≥ 2 (at most 2^20);
   * `m` and `n` are finite positions (integers in practice).
   */
  rope(q: number[], k: number[], m: number, n: number, opts?: RopeOptions | null): RopeResult;

  // ---- cost ----

  /**
   * Counts of attention over `tokens` tokens and the size of its key-value cache
   * (core/include/llmmath/cost.hpp). Every count is exact below 2^53 and the correctly rounded
   * double above.
   */
  attentionCost(cfg: AttentionCostConfig): AttentionCostResult;

  // ---- speculative ----

  /**
   * Speculative decoding (Leviathan et al. 2023): expected tokens per target call, eq. 1, its
   * limit as gamma grows and, when `costRatio` is given, the walltime improvement (Theorem 3.8).
   */
  speculativeDecoding(cfg: SpeculativeConfig): SpeculativeResult;

  // ---- alibi ----

  /**
   * The ALiBi head slopes (Press et al. 2022, as its reference code computes them): for h a
   * power of two, 2^(−8k/h) for k = 1 … h (8 heads: 1/2 … 1/256); otherwise the slopes of the
   * largest power of two p below h followed by every other slope of 2p, h − p of them.
   * @param heads whole number in 1 … 4096
   * @returns heads slopes, the first head's (largest) first
   */
  alibiSlopes(heads: number): number[];

  /**
   * One ALiBi head of slope m (Press et al. 2022, §3): the distance ln 2 / m at which the bias
   * halves a key's softmax weight and, with `tokens`, the bias matrix −m·(i − j).
   */
  alibi(cfg: AlibiConfig): AlibiResult;

  // ---- quantize ----

  /**
   * SmoothQuant's per-channel smoothing factors (Xiao et al. 2023, eq. 4):
   * s_j = xAbsMax_j^alpha / wAbsMax_j^(1 − alpha), and the maxima they leave.
   * @param xAbsMax per-channel activation maxima, each in [1e-150, 1e150]
   * @param wAbsMax per-channel weight maxima, same length, each in [1e-150, 1e150]
   * @param alpha migration strength in [0, 1]; omitted, undefined or null means 0.5
   */
  smoothQuant(xAbsMax: number[], wAbsMax: number[], alpha?: number | null): SmoothQuantResult;

  /**
   * Symmetric per-tensor integer quantisation: scale = max|x| / (2^(bits−1) − 1) (1 when every
   * value is 0), levels rounded half to even and clamped to ±(2^(bits−1) − 1).
   * @param values finite numbers (at most 2^20), largest magnitude 0 or at least 1e-300
   */
  quantize(values: number[], opts?: QuantizeOptions | null): QuantizeResult;
}

// ---- rope ----

/** Options of rope(); give `base` or `freqs`, not both. */
interface RopeOptions {
  /**
   * Which coordinates form pair i: (x[2i], x[2i+1]) for "interleaved" (RoFormer's eq. 34, the
   * default) or (x[i], x[i + d/2]) for "half" (GPT-NeoX and Hugging Face Llama code).
   */
  pairing?: "interleaved" | "half";
  /** θ_i = base^(−2i/d); finite and > 1; default 10000. */
  base?: number;
  /** The d/2 frequencies θ_i in radians per position, finite, instead of `base`. */
  freqs?: number[];
}

interface RopeResult {
  /** The rotated query R(m)·q, length d. */
  qRotated: number[];
  /** The rotated key R(n)·k, length d. */
  kRotated: number[];
  /** qRotated · kRotated; depends only on m − n. */
  raw: number;
  /** raw / sqrt(d). */
  scaled: number;
  /** θ_i in radians per position, length d/2. */
  thetas: number[];
  /** d/2 rows [m·θ_i, n·θ_i]: the angles, in radians, by which pair i of q and of k turn. */
  angles: number[][];
  /** d/2 rows [a, b]: the indices of the two coordinates of pair i. */
  pairs: number[][];
  /** Pair i's part of raw (the dot product of its rotated coordinates); they sum to raw. */
  pairScores: number[];
}

// ---- cost ----

interface AttentionCostConfig {
  /** Sequence length n, whole number in 1 … 2^24. */
  tokens: number;
  /** Query heads per layer, whole number in 1 … 4096. */
  heads: number;
  /** Dimension of each head, whole number in 1 … 4096. */
  headDim: number;
  /** Layers, whole number in 1 … 4096; default 1. */
  layers?: number;
  /**
   * Key-value heads per layer, a divisor of `heads` (grouped-query attention, Ainslie et al.
   * 2023; 1 is multi-query attention); default `heads`.
   */
  kvHeads?: number;
  /** Sequences processed together, whole number in 1 … 4096; default 1. */
  batch?: number;
  /** Bytes per stored value in (0, 1024]: 2 for fp16 (default), 1 for int8, 0.5 for 4-bit. */
  bytesPerValue?: number;
}

interface AttentionCostResult {
  /** tokens², one score per (query, key) pair. */
  scoresPerHead: number;
  /** batch·heads·tokens². */
  scoresPerLayer: number;
  /** 2·batch·tokens·kvHeads·headDim: one key and one value per KV head and token. */
  kvValuesPerLayer: number;
  /** kvValuesPerLayer·layers. */
  kvValues: number;
  /** kvValues·bytesPerValue. */
  kvBytes: number;
  /** 2·kvHeads·headDim·layers·bytesPerValue: the cache one more token of one sequence adds. */
  kvBytesPerToken: number;
  /** batch·heads·tokens²·headDim multiply-adds of Q·Kᵀ (full square, no causal saving). */
  qkMacsPerLayer: number;
  /** batch·heads·tokens²·headDim multiply-adds of weights·V (full square). */
  avMacsPerLayer: number;
  /** (qkMacsPerLayer + avMacsPerLayer)·layers. */
  macs: number;
}

// ---- speculative ----

interface SpeculativeConfig {
  /** Acceptance rate α in [0, 1]. */
  alpha: number;
  /** Draft length γ, whole number in 0 … 1024. */
  gamma: number;
  /** Cost of a draft step over a target step, c ≥ 0; without it there is no speedup. */
  costRatio?: number;
}

interface SpeculativeResult {
  /** (1 − α^(γ+1)) / (1 − α), or γ + 1 at α = 1. */
  expectedTokens: number;
  /** 1 / (1 − α), the limit as γ grows; Infinity at α = 1. */
  ceiling: number;
  /** expectedTokens / (γ·c + 1); present only when costRatio is given. */
  speedup?: number;
  /**
   * γ + 1 entries: entry j is the probability that one target call yields exactly j + 1
   * tokens, α^j·(1 − α) for j < γ and α^γ for j = γ. Sums to 1; its mean is expectedTokens.
   */
  tokenProbs: number[];
}

// ---- alibi ----

interface AlibiConfig {
  /** The head's slope m, in [1e-300, 1e300] (> 0, bounded so every result is finite). */
  slope: number;
  /** Sequence length for the bias matrix, whole number in 1 … 4096. */
  tokens?: number;
}

interface AlibiResult {
  /** ln 2 / slope, in tokens: where the bias halves a key's weight relative to distance 0. */
  halfDistance: number;
  /**
   * tokens × tokens, present only with tokens: −slope·(i − j) for key j ≤ query i (0 on the
   * diagonal, never −0) and null for j > i, masked.
   */
  bias?: (number | null)[][];
  /**
   * Present only with tokens; entry δ (0 … tokens − 1) is e^(−slope·δ), the factor by which
   * the bias scales a key's softmax weight at distance δ relative to distance 0.
   */
  relativeWeight?: number[];
}

// ---- quantize ----

interface SmoothQuantResult {
  /** s_j per channel. */
  scales: number[];
  /** xAbsMax_j / s_j, the activation maxima after smoothing. */
  xAbsMax: number[];
  /** wAbsMax_j · s_j, the weight maxima after smoothing. */
  wAbsMax: number[];
}

interface QuantizeOptions {
  /** Whole number in 2 … 16; default 8. */
  bits?: number;
}

interface QuantizeResult {
  /** max|x| / (2^(bits−1) − 1), 1 when every value is 0: the step between levels. */
  scale: number;
  /** round(x / scale), ties to even, in −qmax … qmax (whole numbers; 0, never −0). */
  levels: number[];
  /** levels · scale. */
  dequantized: number[];
  /** max |x − dequantized|, at most scale / 2. */
  maxAbsError: number;
  /** 2^(bits−1) − 1, the largest level (127 for 8 bits). */
  qmax: number;
  /** x − dequantized per value. */
  errors: number[];
}
