// TypeScript declarations of dist/llmmath.js, the core's public JavaScript API
// (../../../shared/spec/core-api.md). Every function takes and returns plain values; invalid
// input throws an Error whose message names the parameter ("topP must be in (0, 1], got 1.5").

/** Resolves to the module object; the WebAssembly is embedded, nothing else is fetched. */
declare function createLLMMath(): Promise<LLMMath>;

/** A 0-based token or expert index. */
type Index = number;

interface LLMMath {
  // ---- sampling ----

  /**
   * The distribution a sampler draws the next token from: temperature, then top-k, then top-p
   * on the renormalised top-k distribution, then renormalisation (Holtzman et al. 2020).
   * Errors name `input`, `logits`, `probs`, `opts`, `temperature`, `topK` or `topP`.
   * @param input exactly one of `logits` (finite numbers) or `probs` (≥ 0, summing to 1 within
   *   1e-9, treated as logits = log p); at most 2^20 entries.
   * @param opts omitted, undefined or null for all defaults.
   */
  sampling(input: SamplingInput, opts?: SamplingOptions | null): SamplingResult;

  /**
   * `opts.count` token indices drawn from `probs` by inverse CDF with uniforms from
   * SplitMix64 seeded with `opts.seed`: the same seed gives the same draws in every build.
   * A token of probability 0 is never drawn.
   * @param probs ≥ 0, summing to 1 within 1e-9, at most 2^20 entries.
   * Errors name `probs`, `opts`, `count` or `seed`.
   */
  sample(probs: number[], opts: SampleOptions): Index[];

  // ---- moe ----

  /**
   * Switch Transformer load-balancing loss without its coefficient α (Fedus et al. 2021,
   * eq. 4): N·Σ f_i·p_i over N experts. 1 when either f or p is uniform, N at full collapse.
   * @param f fraction of tokens dispatched to each expert: ≥ 0, summing to 1 within 1e-6.
   * @param p mean router probability of each expert: same length as f, ≥ 0, summing to 1
   *   within 1e-6.
   */
  moeLoadBalance(f: number[], p: number[]): MoeLoadBalanceResult;

  /**
   * Routes each token to its topK most probable experts (softmax per token; equal
   * probabilities go to the lower index) and evaluates the load-balancing loss.
   * @param routerLogits tokens×experts, finite, at most 4096 per side.
   * @param topK integer in 1 … experts; omitted, undefined or null means 1.
   */
  moeRoute(routerLogits: number[][], topK?: number | null): MoeRouteResult;
}

// ---- sampling ----

/** Logits or probabilities over the vocabulary, never both. */
type SamplingInput = { logits: number[]; probs?: undefined } | { probs: number[]; logits?: undefined };

interface SamplingOptions {
  /** ≥ 0, finite; default 1. 0 is greedy decoding: all mass on the argmax. */
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
  /** softmax(logits / temperature) before any filter; one-hot on the argmax at temperature 0. */
  tempered: number[];
  /** Every token index by descending probability, ties by lower index; kept is its prefix. */
  order: Index[];
  /**
   * Cumulative mass along `order` of the distribution top-p cuts (the top-k distribution,
   * renormalised); constant after the k-th entry.
   */
  cumulative: number[];
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
