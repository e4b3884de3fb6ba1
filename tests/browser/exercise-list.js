// The eight exercises of the chapter, for the tests that try them (exercises.test.js) and that read
// what their figures expose before the answer is committed (conceal.test.js).
"use strict";

/**
 * `fn(m, state, el)` evaluated in the page with a fresh core, the figure's state and element.
 * Passed as source text: the page's Content-Security-Policy refuses eval from its own scripts.
 */
function core(page, id, fn) {
  return page.evaluate(`(async () => {
    const el = document.getElementById(${JSON.stringify(id)});
    const m = await createLLMMath();
    return (${fn.toString()})(m, el.state, el);
  })()`);
}

/** Sets a figure's attribute, as a page or a course author would. */
function setAttr(page, id, name, value) {
  return page.evaluate(([id, name, value]) => document.getElementById(id).setAttribute(name, value), [id, name, value]);
}

// Each exercise: its section, figure, the core's value at the page's inputs (`value`, checked
// against `expected` with the tolerance the exercise states), wrong predictions with the hint
// each must get, a change of the figure's inputs and the value after it. Every expected value is
// the core's, computed in the page from the figure's state; `expected` is the chapter's answer.
// `gives` (optional): other quantities the figure computes that give the answer (`of: "value"`) or
// the follow-up's (`of: "followUp"`) by one step the section teaches, a product or a quotient,
// which the page may not show either before it is committed.
const EXERCISES = [
  {
    n: 1,
    section: "attention",
    figure: "attention-figure",
    expected: 1,
    tolerance: 0.01,
    value: (m, s) => m.attention(s.q, s.k, s.v, { causal: s.causal }).weights[0][0],
    wrong: [
      // softmax(0.7071, 0, 2.1213)[0] = 0.1783: the masked keys let into the denominator
      ["0.178", /you divided by the sum over all the keys, the future ones too/],
      ["0.7071", /key 1's score q₁·k₁\/√d, before the softmax/],
      ["0", /key 1 is at query 1's own position/],
      ["0.5", /Look at row 1 of the scores/],
    ],
    // The follow-up: query 1's output, first component; the unmasked output is a hint's.
    followUp: (m, s) => m.attention(s.q, s.k, s.v, { causal: s.causal }).output[0][0],
    followUpExpected: 1,
    followUpWrong: [["0.4", /The output is the weighted sum of the values/]],
    change: (page) => setAttr(page, "attention-figure", "causal", "false"),
  },
  {
    n: 2,
    section: "sampling",
    figure: "sampling-exercise",
    expected: 0.5,
    tolerance: 0.01,
    value: (m, s) =>
      m.sampling({ probs: s.probs }, { temperature: s.temperature, topK: s.topK, topP: s.topP }).probs[0],
    wrong: [
      ["0.4", /before the filter\. The nucleus keeps only part of the mass, and the sampler renormalises/],
      ["0.8", /the mass the nucleus retains, not the token's probability/],
      ["0.25", /Sort the tokens, most probable first/],
    ],
    followUp: (m, s) =>
      m.sampling({ probs: s.probs }, { temperature: s.temperature, topK: s.topK, topP: s.topP }).keptMass,
    followUpExpected: 0.8,
    followUpWrong: [["1", /That is the mass before the filter/]],
    // Top-p 0.85: the nucleus takes a third token (mass 0.9), so "blue" gets 0.4/0.9 = 0.444 and 0.5
    // is now wrong; neither number is one of the figure's inputs, which the text states.
    change: (page) => setAttr(page, "sampling-exercise", "top-p", "0.85"),
  },
  {
    n: 3,
    section: "rope",
    figure: "rope-figure",
    expected: 1.9997999867,
    tolerance: 0.00005,
    value: (m, s) => m.rope(s.q, s.k, s.m, s.n, { pairing: s.pairing, freqs: s.freqs }).raw,
    right: "1.9998",
    wrong: [
      ["0.9999", /That is the score, the raw score divided by √d = √4/],
      ["2", /the dot product of q and k with no rotation/],
      ["1", /the score with no rotation, divided by √d/],
      ["0.5", /Each pair contributes the dot product of its two rotated halves/],
    ],
    // The follow-up: the score, the raw one divided by √4.
    followUp: (m, s) => m.rope(s.q, s.k, s.m, s.n, { pairing: s.pairing, freqs: s.freqs }).scaled,
    followUpExpected: 0.9998999933,
    followUpWrong: [["1.9998", /That is the raw score q̃·k̃ again; the score divides it by √d = √4/]],
    // Query at 100: the pairs turn by 1 and 0.01 rad, a score of about 0.77.
    change: (page) => setAttr(page, "rope-figure", "m", "100"),
  },
  {
    n: 4,
    section: "cost",
    figure: "cost-figure",
    expected: 256,
    tolerance: 0,
    value: (m, s) =>
      m.attentionCost({ tokens: s.tokens, heads: s.heads, headDim: s.headDim, kvHeads: s.kvHeads }).scoresPerHead,
    wrong: [
      ["16", /one score per token\. Each of the n queries is scored against each of the n keys/],
      ["2,048", /counts the scores of every head in the layer/],
      ["8192", /the layer's KV cache holds/],
      ["255", /count the \(query, key\) pairs/],
    ],
    followUp: (m, s) =>
      m.attentionCost({ tokens: s.tokens, heads: s.heads, headDim: s.headDim, kvHeads: s.kvHeads }).kvValuesPerLayer,
    followUpExpected: 8192,
    followUpWrong: [["4096", /the keys only/]],
    change: (page) => setAttr(page, "cost-figure", "tokens", "32"),
  },
  {
    n: 5,
    section: "speculative",
    figure: "speculative-figure",
    expected: 1.875,
    tolerance: 0.01,
    value: (m, s) => m.speculativeDecoding({ alpha: s.alpha, gamma: s.gamma }).expectedTokens,
    wrong: [
      ["2", /the ceiling 1\/\(1 − α\), the limit as γ grows/],
      // eq. 1 at α = (0.5 + 0.25 + 0.125)/3 = 0.2917, the naive accepted ÷ proposed: 1.4016
      ["1.40", /dividing the accepted drafts by the proposed ones, which undercounts α/],
      ["1.75", /the sum runs to α\^γ/],
      ["4", /the most one call can yield/],
      ["2.5", /the target stops at the first rejection/],
      ["3", /add 1 \+ α \+ α² \+ … up to α\^γ/],
    ],
    followUp: (m, s) => m.speculativeDecoding({ alpha: s.alpha, gamma: s.gamma }).ceiling,
    followUpExpected: 2,
    followUpWrong: [["4", /the most a call can yield at this γ/]],
    // α = 0.7: 2.533 tokens a call and a ceiling of 3.333, neither a number written as a name.
    change: (page) => setAttr(page, "speculative-figure", "alpha", "0.7"),
  },
  {
    n: 6,
    section: "alibi",
    figure: "alibi-figure",
    expected: 5.545177,
    tolerance: 0.05,
    value: (m, s) => m.alibi({ slope: m.alibiSlopes(s.heads)[s.head - 1] }).halfDistance,
    right: "5.5",
    wrong: [
      ["8", /That is 1\/m, the distance at which the bias reaches −1/],
      ["0.0866", /You multiplied ln 2 by m/],
      ["11.09", /a slope half as steep/],
      ["2.41", /log₁₀ 2/],
      ["6", /solve e\^\(−m·δ\) = ½ for δ/],
    ],
    // Head 4 of 8: slope 1/16, twice the distance.
    followUp: (m, s) => m.alibi({ slope: m.alibiSlopes(s.heads)[s.head - 1] / 2 }).halfDistance,
    followUpExpected: 11.090355,
    followUpWrong: [["2.77", /That halves the distance/]],
    change: (page) => setAttr(page, "alibi-figure", "head", "4"),
  },
  {
    n: 7,
    section: "quantization",
    figure: "quantization-figure",
    expected: 4,
    tolerance: 0.01,
    // s of the channel with the largest activation range, the one the exercise asks about.
    value: (m, s) => {
      const L = m.smoothQuantLayer(s.x, s.w, { alpha: s.alpha, bits: s.bits });
      return L.scales[L.largestChannel];
    },
    wrong: [
      ["2", /activation range after smoothing, max\|X\|\/s/],
      ["16", /max\|X\| \/ max\|W\| without the powers/],
      ["0.25", /That is 1\/s/],
      ["8", /as α = 1 would/],
      ["3", /to the power α and divide by its weight range to the power 1 − α/],
    ],
    followUp: (m, s) => {
      const L = m.smoothQuantLayer(s.x, s.w, { alpha: s.alpha, bits: s.bits });
      return L.xAbsMaxSmoothed[L.largestChannel];
    },
    followUpExpected: 2,
    followUpWrong: [["8", /the range before smoothing/]],
    // The scales of the smoothed activations and weights: the largest range after smoothing over
    // qmax, and at the page's inputs that range is the channel's, the follow-up's answer (2/127).
    gives: [
      {
        of: "followUp",
        value: (m, s) => m.smoothQuantLayer(s.x, s.w, { alpha: s.alpha, bits: s.bits }).quantXSmoothed.scale,
      },
      {
        of: "followUp",
        value: (m, s) => m.smoothQuantLayer(s.x, s.w, { alpha: s.alpha, bits: s.bits }).quantWSmoothed.scale,
      },
    ],
    change: (page) => setAttr(page, "quantization-figure", "alpha", "0.75"),
  },
  {
    n: 8,
    section: "moe",
    figure: "moe-figure",
    expected: 1,
    tolerance: 0.01,
    value: (m, s) => {
      const f = m.moeRoute(s.logits, s.topK).f;
      return m.moeLoadBalance(
        f,
        f.map(() => 1 / f.length),
      ).loss;
    },
    wrong: [
      ["0.25", /without the factor N = 4/],
      ["4", /a full collapse/],
      ["0.5", /expert 1's term alone/],
      ["2", /multiply by N/],
    ],
    // Even router weights give 1 for every split: that is the exercise's point, so its value
    // cannot move. The change makes the router's own loss (a hint's value) and the worked sum
    // follow instead.
    followUp: (m, s) => {
      const f = m.moeRoute(s.logits, s.topK).f.map((_, i) => (i === 0 ? 1 : 0));
      return m.moeLoadBalance(
        f,
        f.map(() => 1 / f.length),
      ).loss;
    },
    followUpExpected: 1,
    followUpWrong: [["4", /a full collapse of the router's weights too/]],
    change: (page) => setAttr(page, "moe-figure", "preset", "collapsed"),
  },
];

module.exports = { EXERCISES, setAttr, core };
