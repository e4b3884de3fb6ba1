// TypeScript declarations of dist/llmmath.js, the core's public JavaScript API
// (../shared/spec/core-api.md), one section per concept, kept in step with
// bindings/wasm/boundary.js (the public functions) and llmmath_bindings.cpp (the core behind
// them). Every function takes and returns plain values; nothing needs .delete(). Invalid input
// throws an Error whose message names the parameter ("topP must be in (0, 1], got 1.5"), and
// the module stays usable after it.
//
// What any caller may rely on, whatever it passes:
// - Each argument is read once. A vector is an array of numbers or a Float64Array; a matrix an
//   array of rows, each an array of numbers or a Float64Array. Arrays and typed arrays from
//   another realm (an iframe, a vm context) are accepted; an array's own methods are never
//   called; a length is a whole number checked against the limit before any entry is read.
// - Options and configs are read as own enumerable properties: nothing inherited counts.
// - No string reaches WebAssembly memory; a string too long to quote is described by length.
// - A caller's getter or Proxy trap that throws gives an Error naming the parameter being read
//   ("topP must be readable, got an exception while reading it: …", the original as `cause`).
// - Results are finite for finite input (ceiling at alpha 1 is Infinity by definition), or the
//   call throws naming the value that would overflow; no result is −0.
// - Limits keep every call to about a second: each function states its limit and the worst
//   case measured through this API on the reference machine (2 cores, Node 20; fastest of five
//   calls; bench/limits.js measures them again). Memory a call allocates is released when it
//   returns (memoryInUse() is back where it was); the WebAssembly memory itself never shrinks,
//   so the largest call of a page sets its size.

/** Resolves to the module object; the WebAssembly is embedded, nothing else is fetched. */
declare function createLLMMath(): Promise<LLMMath>;

/** A 0-based token or expert index. */
type Index = number;

/** A vector: an array of numbers or a Float64Array (read once and copied). */
type Vector = number[] | Float64Array;

/** A matrix: an array of rows of one length, each an array of numbers or a Float64Array. */
type Matrix = Array<number[] | Float64Array>;

interface LLMMath {
  // ---- attention ----

  /**
   * Scaled dot-product attention (Vaswani et al. 2017, eq. 1): softmax(scale·q·kᵀ + mask)·v.
   * `q` is nq×d, `k` is nk×d, `v` is nk×dv (at most 4096 per side). Under `opts.causal` query
   * i sits at position nk − nq + i and later keys get weight exactly 0.
   * Limits: nq·nk ≤ 2^22 scores (2048 queries over 2048 keys) and nq·nk·(d + dv) ≤ 2^30
   * multiply-adds; worst case (2048 × 2048, d + dv = 256) 0.8 s (median 0.9 s).
   * Errors name `q`, `k`, `v`, `opts`, `causal` or `scale` (`v` when an average of entries
   * near the largest double overflows).
   */
  attention(q: Matrix, k: Matrix, v: Matrix, opts?: AttentionOptions | null): AttentionResult;

  /**
   * The softmax weight e^a / (e^a + n·e^b) that one relevant key (score a) keeps among n
   * distractors (score b). Errors name `cfg`, `relevantScore`, `distractorScore` or `distractors`.
   */
  contextDilution(cfg: ContextDilutionConfig): ContextDilutionResult;

  /**
   * contextDilution at each count of `distractors` (1 to 4096 of them), in one call: the curve
   * of figure 1.2. Errors name `cfg`, `relevantScore`, `distractorScore`, `distractors` or the
   * entry `distractors[i]`.
   */
  contextDilutionSweep(cfg: ContextDilutionSweepConfig): ContextDilutionSweepResult;

  // ---- sampling ----

  /**
   * The distribution a sampler draws the next token from: temperature, then top-k, then top-p
   * on the renormalised top-k distribution, then renormalisation (Holtzman et al. 2020).
   * Errors name `input`, `logits`, `probs`, `opts`, `temperature`, `topK` or `topP`.
   * @param input exactly one of `logits` (finite numbers) or `probs` (≥ 0, summing to 1 within
   *   1e-9, treated as logits = log p); at most 2^20 entries (worst case 0.2 s (median 0.3 s)).
   * @param opts omitted, undefined or null for all defaults.
   */
  sampling(input: SamplingInput, opts?: SamplingOptions | null): SamplingResult;

  /**
   * `opts.count` token indices drawn from `probs` by inverse CDF with uniforms from
   * SplitMix64 seeded with `opts.seed`: the same seed gives the same draws in every build.
   * A token of probability 0 is never drawn.
   * @param probs ≥ 0, summing to 1 within 1e-9, at most 2^20 entries.
   * Worst case (10^6 draws from 2^20 tokens) 0.3 s.
   * Errors name `probs`, `opts`, `count` or `seed`.
   */
  sample(probs: Vector, opts: SampleOptions): Index[];

  // ---- moe ----

  /**
   * Switch Transformer load-balancing loss without its coefficient α (Fedus et al. 2021,
   * eq. 4): N·Σ f_i·p_i over N experts. 1 when either f or p is uniform, N at full collapse.
   * @param f fraction of tokens dispatched to each expert: ≥ 0, summing to 1 within 1e-6.
   * @param p mean router probability of each expert: same length as f, ≥ 0, summing to 1
   *   within 1e-6. At most 2^20 experts (worst case 40 ms).
   */
  moeLoadBalance(f: Vector, p: Vector): MoeLoadBalanceResult;

  /**
   * Routes each token to its topK most probable experts (softmax per token; equal
   * probabilities go to the lower index) and evaluates the load-balancing loss.
   * @param routerLogits tokens×experts, finite, at most 4096 per side and 2^21 entries (worst
   *   case, 2048 × 1024 with topK 1024, 0.3 s).
   * @param topK integer in 1 … experts; omitted or undefined means 1.
   */
  moeRoute(routerLogits: Matrix, topK?: number): MoeRouteResult;

  // ---- rope ----

  /**
   * Rotary position embedding (Su et al. 2021, RoFormer, eq. 34) of query `q` at position `m`
   * and key `k` at position `n`: pair i of each vector turns anticlockwise by pos·θ_i, so
   * `raw` depends only on m − n. `q` and `k` have the same even length d ≥ 2 (at most 2^20;
   * worst case 0.5 s (median 0.6 s)); `m` and `n` are finite positions (integers in practice).
   */
  rope(q: Vector, k: Vector, m: number, n: number, opts?: RopeOptions | null): RopeResult;

  /**
   * rope() at many offsets in one call: the query at position offsets[t], the key at 0, for
   * plotting the score against relative position; each entry equals rope()'s exactly. At most
   * 2^20 offsets and 2^24 / d of them (worst case, 2^17 offsets of d = 128, 0.3 s (median 0.4 s)).
   * Errors name `q`, `k`, `offsets` (`offsets[t]` when its angles overflow), `opts`,
   * `pairing`, `base` or `freqs`.
   */
  ropeScores(q: Vector, k: Vector, offsets: Vector, opts?: RopeOptions | null): RopeScoresResult;

  // ---- cost ----

  /**
   * Counts of attention over `tokens` tokens and the size of its key-value cache
   * (core/include/llmmath/cost.hpp). Every count is exact below 2^53 and the correctly rounded
   * double above.
   */
  attentionCost(cfg: AttentionCostConfig): AttentionCostResult;

  /**
   * attentionCost at each context length of `tokens` (1 to 4096 of them), the rest of `cfg`
   * fixed, in one call: the curves of figure 4.1. Errors as attentionCost's, an entry named
   * `tokens[i]`.
   */
  attentionCostSweep(cfg: AttentionCostSweepConfig): AttentionCostSweepResult;

  // ---- speculative ----

  /**
   * Speculative decoding (Leviathan et al. 2023): expected tokens per target call, eq. 1, its
   * limit as gamma grows and, when `costRatio` is given, the walltime improvement (Theorem 3.8).
   */
  speculativeDecoding(cfg: SpeculativeConfig): SpeculativeResult;

  /**
   * speculativeDecoding at each draft length of `gamma` (1 to 4096 of them), in one call: the
   * curves of figure 5.1 and, with `costRatio`, the draft length with the largest speedup.
   * Errors name `cfg`, `alpha`, `gamma`, the entry `gamma[i]` or `costRatio`.
   */
  speculativeSweep(cfg: SpeculativeSweepConfig): SpeculativeSweepResult;

  /**
   * The inverse of eq. 1: the acceptance rate α at which gamma drafts per call give
   * `meanTokens` tokens per target call on average (eq. 1 grows strictly with α, so it is
   * unique), to within 1e-12. meanTokens 1 gives α = 0, gamma + 1 gives α = 1.
   * Errors name `cfg`, `meanTokens` or `gamma`.
   */
  speculativeAlpha(cfg: SpeculativeAlphaConfig): SpeculativeAlphaResult;

  /**
   * A seeded simulation of `rounds` rounds of speculative decoding in which each checked draft
   * is accepted with probability alpha and a round stops at its first rejection, returning the
   * counts a practitioner logs and three estimates of α: accepted / proposed (wrong: it also
   * counts drafts never checked; ≈ 0.29 at α 0.5, γ 3), accepted / checked (≈ α) and α solved
   * from the mean tokens per call (≈ α). The same seed gives the same counts in every build
   * (SplitMix64, as `sample`). At most 10^7 draft tokens (worst case 20 ms).
   * Errors name `cfg`, `alpha`, `gamma`, `rounds` or `seed`.
   */
  speculativeMeasure(cfg: SpeculativeMeasureConfig): SpeculativeMeasureResult;

  // ---- alibi ----

  /**
   * The ALiBi head slopes (Press et al. 2022, as its reference code computes them): for h a
   * power of two, 2^(−8k/h) for k = 1 … h (8 heads: 1/2 … 1/256); otherwise the slopes of the
   * largest power of two p below h followed by every other slope of 2p, h − p of them.
   * @param heads whole number in 1 … 4096 (under a millisecond)
   * @returns heads slopes, the first head's (largest) first
   */
  alibiSlopes(heads: number): number[];

  /**
   * Every head of an h-head ALiBi model with its half-distance, and the steepest and gentlest
   * head found by comparing all slopes: they are the first and the last head only when h is a
   * power of two (12 heads: steepest head 9, slope 2^−0.5; gentlest head 8, slope 2^−8,
   * half-distance ≈ 177.4 tokens). Head numbers are 1-based.
   * @param heads whole number in 1 … 4096
   */
  alibiHeads(heads: number): AlibiHeadsResult;

  /**
   * One ALiBi head of slope m (Press et al. 2022, §3): the distance ln 2 / m at which the bias
   * halves a key's softmax weight and, with `tokens`, the bias matrix −m·(i − j). Worst case,
   * 4096 tokens (a 4096 × 4096 bias, 2^24 entries), 0.6 s (median 0.7 s); 2^20 distances 50 ms.
   */
  alibi(cfg: AlibiConfig): AlibiResult;

  // ---- quantize ----

  /**
   * SmoothQuant's per-channel smoothing factors (Xiao et al. 2023, eq. 4):
   * s_j = xAbsMax_j^alpha / wAbsMax_j^(1 − alpha), and the maxima they leave. As in the
   * reference code (mit-han-lab/smoothquant, smooth.py), the weight maximum and then the scale
   * are clamped to at least 1e-5, so an all-zero channel is smoothed, not refused.
   * @param xAbsMax per-channel activation maxima, each 0 or in [1e-150, 1e150]
   * @param wAbsMax per-channel weight maxima, same length, each 0 or in [1e-150, 1e150]
   * @param alpha migration strength in [0, 1]; omitted or undefined means 0.5
   * At most 2^20 channels (worst case 0.15 s (median 0.2 s)).
   */
  smoothQuant(xAbsMax: Vector, wAbsMax: Vector, alpha?: number): SmoothQuantResult;

  /**
   * Symmetric per-tensor integer quantisation: scale = max|x| / (2^(bits−1) − 1) (1 when every
   * value is 0), levels rounded half to even and clamped to ±(2^(bits−1) − 1).
   * @param values finite numbers, at most 2^20 (worst case 0.1 s, median 0.15 s), largest
   *   magnitude 0 or in [1e-300, 1e300] (an entry above 1e300 is named: its dequantised value or
   *   error would overflow)
   */
  quantize(values: Vector, opts?: QuantizeOptions | null): QuantizeResult;

  /**
   * SmoothQuant on one linear layer Y = x·w (Xiao et al. 2023, §4): channel ranges, smoothing
   * factors, both sides quantised per tensor before and after smoothing, and the output error
   * of each. `x` is tokens×channels, `w` channels×outputs; every channel's largest magnitude 0
   * or in [1e-150, 1e150] (all-zero channels use smoothQuant's clamps); tokens·channels·outputs
   * ≤ 2^24, and x, w and x·w at most 2^20 entries each (worst case, x 1024 × 1024 with
   * w 1024 × 16, 0.4 s). Errors name `x`, `w`, `opts`, `alpha`, `bits`.
   */
  smoothQuantLayer(x: Matrix, w: Matrix, opts?: SmoothQuantLayerOptions | null): SmoothQuantLayerResult;

  /**
   * The largest quantisation error of the smoothed x and w at each α of `opts.alpha` (1 to 4096
   * values, with values·(x's entries + w's entries) ≤ 2^24), in one call: the curves of figure
   * 7.1. x and w as smoothQuantLayer's. Errors name `x`, `w`, `opts`, `alpha`, `alpha[i]`, `bits`.
   */
  smoothQuantLayerSweep(x: Matrix, w: Matrix, opts: SmoothQuantLayerSweepOptions): SmoothQuantLayerSweepResult;

  // ---- diagnostics ----

  /**
   * Bytes currently allocated in the WebAssembly heap, counted as every block is allocated and
   * freed (for leak tests: a call that leaks leaves it higher).
   */
  memoryInUse(): number;
  /** memoryInUse() with the blocks it counts, the top of the heap and the memory's size. */
  memoryStats(): MemoryStats;
  /** Live embind value handles (for leak tests). */
  count_emval_handles(): number;
}

interface MemoryStats {
  /** Usable bytes of the blocks allocated and not yet freed: memoryInUse(). */
  bytesInUse: number;
  /** Blocks allocated and not yet freed. */
  blocksInUse: number;
  /** The end of the heap (sbrk(0)), which only grows. */
  heapTop: number;
  /** The size of the WebAssembly memory in bytes, which only grows. */
  memoryBytes: number;
}

// ---- attention ----

interface AttentionOptions {
  /** Hide keys after each query's position (default false). */
  causal?: boolean;
  /** Multiplier of the dot products, finite (default 1/sqrt(d)). */
  scale?: number;
}

interface AttentionResult {
  /** nq×nk: scale·(q_i·k_j), before any mask. */
  scores: number[][];
  /** nq×nk: softmax over the visible scores of each row; masked entries exactly 0. */
  weights: number[][];
  /** nq×dv: weights·v. */
  output: number[][];
  /** nq×nk: true where key j is visible to query i. */
  visible: boolean[][];
  /** Position of each query in the key sequence: nk − nq + i. */
  positions: number[];
  /** The scale used. */
  scale: number;
}

interface ContextDilutionConfig {
  relevantScore: number;
  distractorScore: number;
  /** An integer ≥ 0. */
  distractors: number;
}

interface ContextDilutionSweepConfig {
  relevantScore: number;
  distractorScore: number;
  /** The counts, 1 to 4096 of them, each an integer ≥ 0. */
  distractors: Vector;
}

interface ContextDilutionSweepResult {
  /** The counts, as given. */
  distractors: number[];
  /** Entry i: contextDilution at distractors[i]. */
  relevantWeight: number[];
  distractorWeight: number[];
  distractorMass: number[];
}

interface ContextDilutionResult {
  /** e^a / (e^a + n·e^b). */
  relevantWeight: number;
  /** e^b / (e^a + n·e^b), the weight of each distractor. */
  distractorWeight: number;
  /** n·e^b / (e^a + n·e^b) = 1 − relevantWeight. */
  distractorMass: number;
}

// ---- sampling ----

/** Logits or probabilities over the vocabulary, never both. */
type SamplingInput = { logits: Vector; probs?: undefined } | { probs: Vector; logits?: undefined };

interface SamplingOptions {
  /**
   * ≥ 0, finite; default 1. 0 is defined as greedy decoding: all mass on the argmax, the lowest
   * index among tied top logits. That is not the limit T → 0, which splits the mass equally
   * among tied top logits (logits [2, 2, 1]: T = 0 gives [1, 0, 0], T = 0.01 about [½, ½, 0]).
   */
  temperature?: number;
  /** Integer ≥ 0; default 0 (off). Larger than the vocabulary keeps every token. */
  topK?: number;
  /** In (0, 1]; default 1 (off). Compared with a tolerance of 1e-9. */
  topP?: number;
}

interface SamplingResult {
  /** One entry per token: the final distribution, 0 for removed tokens, summing to 1. */
  probs: number[];
  /** Kept token indices, most probable first (ties by lower index); at least one. */
  kept: Index[];
  /** softmax(logits / temperature) before any filter; one-hot on the argmax (lowest tied index) at temperature 0. */
  tempered: number[];
  /** Every token index by descending probability, ties by lower index; kept is its prefix. */
  order: Index[];
  /**
   * Cumulative mass along `order` of the distribution top-p cuts (the top-k distribution,
   * renormalised); constant after the k-th entry.
   */
  cumulative: number[];
  /** Tempered mass of the k most probable tokens (all of it, 1 up to rounding, with topK off). */
  topKMass: number;
  /**
   * One entry per token: the distribution top-p cuts, tempered / topKMass on the top-k tokens
   * and 0 elsewhere; `cumulative` is its running sum along `order`.
   */
  topKProbs: number[];
  /** How many tokens top-k and top-p leave: kept = order.slice(0, cutoff). */
  cutoff: number;
  /** Tempered mass of the kept tokens before renormalising: probs[i] = tempered[i] / keptMass. */
  keptMass: number;
}

interface SampleOptions {
  /** Integer in [1, 10^6]. */
  count: number;
  /** Integer in [0, 2^32). */
  seed: number;
}

// ---- moe ----

interface MoeLoadBalanceResult {
  /** N·Σ f_i·p_i. */
  loss: number;
  /** N·f_i·p_i per expert, summing to loss. */
  terms: number[];
}

interface MoeRouteResult {
  /** tokens×topK: each token's experts, most probable first. */
  assignments: Index[][];
  /** Per expert: assignments received / (tokens·topK); sums to 1. */
  f: number[];
  /** Per expert: mean router probability over the tokens; sums to 1. */
  p: number[];
  /** N·Σ f_i·p_i, as moeLoadBalance(f, p). */
  loss: number;
  /** tokens×experts router probabilities, a softmax per token. */
  probs: number[][];
  /** Per expert: how many of the tokens·topK assignments it received. */
  counts: number[];
  /** N·f_i·p_i per expert, summing to loss. */
  terms: number[];
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
  freqs?: Vector;
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
  /** m − n: the offset, the one thing raw depends on. */
  offset: number;
  /** θ_i in radians per position, length d/2. */
  thetas: number[];
  /** d/2 rows [m·θ_i, n·θ_i]: the angles, in radians, by which pair i of q and of k turn. */
  angles: number[][];
  /** d/2 rows [a, b]: the indices of the two coordinates of pair i. */
  pairs: number[][];
  /** Pair i's part of raw (the dot product of its rotated coordinates); they sum to raw. */
  pairScores: number[];
}

interface RopeScoresResult {
  /** Per offset: q_rotated · k_rotated. */
  raw: number[];
  /** Per offset: raw / sqrt(d). */
  scaled: number[];
}

// ---- cost ----

interface AttentionCostConfig {
  /** Sequence length n, whole number in 1 … 2^30. */
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
  /**
   * Model width d_model, whole number in 1 … 65536. With ffnDim, the result also counts the
   * linear layers and the crossover; give both or neither.
   */
  dModel?: number;
  /** Feed-forward hidden size d_ff, whole number in 1 … 262144; given with dModel. */
  ffnDim?: number;
  /**
   * Gated feed-forward (SwiGLU, as in Llama: 3 matrices, 3·dModel·ffnDim per token) instead of
   * the two-matrix one (GPT-2: 2·dModel·ffnDim); default false; only with dModel and ffnDim.
   */
  gated?: boolean;
}

/** attentionCost's cfg with `tokens` an array of context lengths (1 to 4096 of them). */
type AttentionCostSweepConfig = Omit<AttentionCostConfig, "tokens"> & { tokens: Vector };

interface AttentionCostSweepResult {
  /** The context lengths, as given. */
  tokens: number[];
  /** Entry i: attentionCost's count at tokens[i]. */
  scoresPerLayer: number[];
  kvValuesPerLayer: number[];
  kvBytes: number[];
  macsPerLayer: number[];
  /** With dModel and ffnDim only. */
  linearMacsPerLayer?: number[];
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
  /** qkMacsPerLayer + avMacsPerLayer: one layer's multiply-adds of attention. */
  macsPerLayer: number;
  /** macsPerLayer·layers. */
  macs: number;
  /**
   * With dModel and ffnDim only. Q, K, V and O projections per layer for batch·tokens tokens:
   * batch·tokens·dModel·headDim·(2·heads + 2·kvHeads) multiply-adds.
   */
  projectionMacsPerLayer?: number;
  /** With dModel and ffnDim only: batch·tokens·dModel·ffnDim·(3 if gated, else 2). */
  ffnMacsPerLayer?: number;
  /** With dModel and ffnDim only: projectionMacsPerLayer + ffnMacsPerLayer, linear in tokens. */
  linearMacsPerLayer?: number;
  /**
   * With dModel and ffnDim only: the token count n at which qkMacsPerLayer + avMacsPerLayer
   * (2·heads·n²·headDim per sequence, full square) equals linearMacsPerLayer; independent of
   * tokens and batch. Llama-2-7B (dModel 4096, 32 heads of 128, ffnDim 11008, gated): 24,704.
   */
  crossoverTokens?: number;
  /**
   * With dModel and ffnDim only: (qk + av) / (qk + av + linear) per layer at `tokens`, attention's
   * share of the multiply-adds (below ½ before the crossover, above it after).
   */
  attentionShare?: number;
}

// ---- speculative ----

interface SpeculativeConfig {
  /** Acceptance rate α in [0, 1] (−0 is 0). */
  alpha: number;
  /** Draft length γ, whole number in 0 … 1024. */
  gamma: number;
  /**
   * Cost of a draft step over a target step, c in [0, 1e300] (so γ·c + 1 stays finite);
   * without it there is no speedup.
   */
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
  /** α^(γ+1), the term eq. 1 subtracts from 1 (0.0625 for α 0.5, γ 3). */
  allAccepted: number;
  /** 1 − α^(γ+1), eq. 1's numerator (0.9375 for α 0.5, γ 3); 0 at α = 1. */
  numerator: number;
  /** 1 − α, eq. 1's denominator. */
  denominator: number;
  /** γ·c + 1, the cost of one round in target steps; present only with costRatio. */
  roundCost?: number;
}

interface SpeculativeSweepConfig {
  /** Acceptance rate α in [0, 1]. */
  alpha: number;
  /** The draft lengths, 1 to 4096 of them, each a whole number in 0 … 1024. */
  gamma: Vector;
  /** As speculativeDecoding's; the speedups and the best γ need it. */
  costRatio?: number;
}

interface SpeculativeSweepResult {
  /** The draft lengths, as given. */
  gamma: number[];
  /** Entry i: eq. 1 at gamma[i]. */
  expectedTokens: number[];
  /** With costRatio: γ·c + 1 at each γ. */
  roundCost?: number[];
  /** With costRatio: expectedTokens / roundCost at each γ. */
  speedup?: number[];
  /** With costRatio: the γ with the largest speedup, the first of the given order on a tie. */
  bestGamma?: number;
  /** With costRatio: the speedup at bestGamma. */
  bestSpeedup?: number;
}

interface SpeculativeAlphaConfig {
  /** Mean tokens per target call, in [1, gamma + 1]. */
  meanTokens: number;
  /** Draft length γ, whole number in 1 … 1024. */
  gamma: number;
}

interface SpeculativeAlphaResult {
  /** α in [0, 1] with (1 − α^(γ+1)) / (1 − α) = meanTokens, to within 1e-12. */
  alpha: number;
  /** eq. 1 at that α: meanTokens again, up to rounding (the check). */
  expectedTokens: number;
}

interface SpeculativeMeasureConfig {
  /** The true acceptance rate α in [0, 1]: each checked draft is accepted with it. */
  alpha: number;
  /** Draft length γ, whole number in 1 … 1024. */
  gamma: number;
  /** Rounds (target calls) to simulate, whole number in 1 … 10^6, with rounds·gamma ≤ 10^7. */
  rounds: number;
  /** Integer in [0, 2^32). */
  seed: number;
}

interface SpeculativeMeasureResult {
  /** Target calls simulated, one per round. */
  rounds: number;
  /** Draft tokens proposed: rounds·gamma. */
  proposed: number;
  /** Draft tokens the target actually checked: a round stops at its first rejection. */
  checked: number;
  /** Draft tokens accepted. */
  accepted: number;
  /** Tokens produced: accepted + rounds (each call adds one token of the target's own). */
  tokens: number;
  /** tokens / rounds; its expectation is expectedTokens. */
  meanTokens: number;
  /** gamma + 1 entries: entry j counts the rounds that produced j + 1 tokens. */
  tokenCounts: number[];
  /** accepted / proposed: does NOT measure α (expectation (α + … + α^γ)/γ, 0.29 at α 0.5, γ 3). */
  acceptedPerProposed: number;
  /** accepted / checked: measures α. */
  acceptedPerChecked: number;
  /** speculativeAlpha({ meanTokens, gamma }).alpha: measures α. */
  alphaFromMeanTokens: number;
  /** eq. 1 at the true α. */
  expectedTokens: number;
  /** eq. 1 at acceptedPerProposed: the tokens per call the naive estimate predicts (too few). */
  expectedTokensPerProposed: number;
  /** eq. 1 at acceptedPerChecked. */
  expectedTokensPerChecked: number;
  /** eq. 1 at alphaFromMeanTokens: meanTokens again, up to the bisection's tolerance. */
  expectedTokensFromMeanTokens: number;
}

// ---- alibi ----

interface AlibiHead {
  /** 1-based head number, the k of slope_k. */
  head: number;
  /** The head's slope m. */
  slope: number;
  /** ln 2 / m, in tokens. */
  halfDistance: number;
}

interface AlibiHeadsResult {
  /** alibiSlopes(heads), in head order. */
  slopes: number[];
  /** ln 2 / slope per head, in tokens. */
  halfDistances: number[];
  /** The largest slope (shortest half-distance); head 1 only for a power of two. */
  steepest: AlibiHead;
  /** The smallest slope, 2^−8 (half-distance 256·ln 2 ≈ 177.4); the last head only for a power of two. */
  gentlest: AlibiHead;
}

interface AlibiConfig {
  /** The head's slope m, in [1e-300, 1e300] (> 0, bounded so every result is finite). */
  slope: number;
  /** Sequence length for the bias matrix, whole number in 1 … 4096. */
  tokens?: number;
  /** How many distances (0 … distances − 1) relativeWeight covers, 1 … 2^20, without a bias. */
  distances?: number;
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
   * Present with distances (that many entries) or tokens (one per token); entry δ is
   * e^(−slope·δ), the factor by which the bias scales a key's softmax weight at distance δ
   * relative to distance 0.
   */
  relativeWeight?: number[];
}

// ---- quantize ----

interface SmoothQuantResult {
  /** s_j per channel: max(xAbsMax_j^α / max(wAbsMax_j, 1e-5)^(1−α), 1e-5). */
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

interface SmoothQuantLayerOptions {
  /** Migration strength in [0, 1] (default 0.5). */
  alpha?: number;
  /** Integer width, 2 … 16 (default 8). */
  bits?: number;
}

interface SmoothQuantLayerSweepOptions {
  /** The migration strengths, 1 to 4096 of them, each in [0, 1]. */
  alpha: Vector;
  /** Integer width, 2 … 16 (default 8). */
  bits?: number;
}

interface SmoothQuantLayerSweepResult {
  /** The migration strengths, as given. */
  alpha: number[];
  /** Entry i: quantXSmoothed.maxAbsError of smoothQuantLayer at alpha[i]. */
  quantXSmoothedMaxAbsError: number[];
  /** Entry i: quantWSmoothed.maxAbsError of smoothQuantLayer at alpha[i]. */
  quantWSmoothedMaxAbsError: number[];
}

interface SmoothQuantLayerResult {
  /** Per channel: max over tokens of |x|, and max over outputs of |w|. */
  xAbsMax: number[];
  wAbsMax: number[];
  /** s_j = xAbsMax_j^α / wAbsMax_j^(1−α). */
  scales: number[];
  /** xAbsMax / s and wAbsMax · s. */
  xAbsMaxSmoothed: number[];
  wAbsMaxSmoothed: number[];
  /** x·diag(s)⁻¹ (tokens×channels) and diag(s)·w (channels×outputs). */
  xSmoothed: number[][];
  wSmoothed: number[][];
  /** Each tensor quantised per tensor, flattened row by row (entry i·cols + j is (i, j)). */
  quantX: QuantizeResult;
  quantW: QuantizeResult;
  quantXSmoothed: QuantizeResult;
  quantWSmoothed: QuantizeResult;
  /** Per channel of x: the largest |level| used, before and after smoothing. */
  xLevels: number[];
  xLevelsSmoothed: number[];
  /** Channels with the largest and the smallest activation range (lowest index on ties). */
  largestChannel: number;
  smallestChannel: number;
  /** x·w in full precision, from the quantised pair, and from the quantised smoothed pair. */
  y: number[][];
  yQuantized: number[][];
  yQuantizedSmoothed: number[][];
  /** Largest |difference| from y of yQuantized and of yQuantizedSmoothed. */
  errorQuantized: number;
  errorQuantizedSmoothed: number;
  /** Largest |x·w − (x·diag(s)⁻¹)(diag(s)·w)|: rounding only. */
  errorSmoothingAlone: number;
}
