// Copy as NumPy for Figure 3.1, <llm-rope> (rope.js): a Python program that
// recomputes the figure's numbers from its current inputs (site/src/numpy.js says what every
// program does). The widget declares it as its `static numpy`; takeaway.js runs it.
import { HEADER, py, pyInt, pyList } from "../numpy.js";

/** The program for the widget's state and result, as text. */
export const numpyProgram = (s, r) => {
  const st = r?.state ?? s;
  const interleaved = st.pairing === "interleaved";
  return `# Rotary position embedding (Su et al. 2021, RoFormer): pair i of q and k turns by pos·θ_i.
# Core: core/include/llmmath/rope.hpp.
${HEADER}
q = np.array(${pyList(st.q)}, dtype=float)  # (d,)
k = np.array(${pyList(st.k)}, dtype=float)  # (d,)
m, n = ${pyInt(st.m)}, ${pyInt(st.n)}  # positions of the query and the key

d = len(q)
${st.useFreqs
    ? `theta = np.array(${pyList(st.freqs)}, dtype=float)  # (d/2,) given, radians per position`
    : `base = ${py(st.base)}
theta = base ** (-2 * np.arange(d // 2) / d)  # (d/2,) θ_i = base^(-2i/d)`}
# ${interleaved ? "interleaved pairs (x[2i], x[2i+1]), as RoFormer and Meta's Llama" : "halves (x[i], x[i+d/2]), as GPT-NeoX and Hugging Face Llama"}
pairs = [${interleaved ? "(2 * i, 2 * i + 1)" : "(i, i + d // 2)"} for i in range(d // 2)]


def rotate(x, pos):
    """Each pair (x_a, x_b) turned anticlockwise by pos·θ_i."""
    out = x.copy()
    for i, (a, b) in enumerate(pairs):
        c, s = np.cos(pos * theta[i]), np.sin(pos * theta[i])
        out[a], out[b] = x[a] * c - x[b] * s, x[a] * s + x[b] * c
    return out


q_rot, k_rot = rotate(q, m), rotate(k, n)
pair_scores = [q_rot[a] * k_rot[a] + q_rot[b] * k_rot[b] for a, b in pairs]
raw = q_rot @ k_rot
scaled = raw / np.sqrt(d)
# only the offset counts: the query at m - n and the key at 0 give the same score
raw_at_offset = rotate(q, m - n) @ rotate(k, 0)

show("thetas", theta)
show("angles", np.stack([m * theta, n * theta], axis=1))  # (d/2, 2): query, key
show("q_rotated", q_rot)
show("k_rotated", k_rot)
show("pair_scores", pair_scores)
show("raw", raw)
show("scaled", scaled)
show("raw_at_offset", raw_at_offset)
`;
};
