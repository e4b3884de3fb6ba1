"""Mixture of experts: top-k routing of tokens to experts and the Switch Transformer
auxiliary load-balancing loss. Chapter 8, section 8; the core's is core/include/llmmath/moe.hpp.

Fedus et al. 2021, "Switch Transformers", §2.2, eqs. 4–6 (the loss without its coefficient α).
"""
import numpy as np


def moe_route(L, top_k=1):
    """Routes each token (a row of the router logits L, (T, N)) to its top_k experts and
    returns the statistics of the loss: the softmax per token in long double; each token's
    experts by descending logit, equal logits by lower index; f over the T·top_k assignments.
    """
    tokens, experts = L.shape
    Z = L.astype(np.longdouble)
    E = np.exp(Z - Z.max(axis=1, keepdims=True))  # shifted by each row's largest logit
    probs = E / E.sum(axis=1, keepdims=True)  # (T, N) router probabilities
    assignments = np.array(  # (T, top_k) most probable expert first
        [sorted(range(experts), key=lambda e: (-L[t, e], e))[:top_k] for t in range(tokens)])
    counts = np.bincount(assignments.ravel(), minlength=experts)  # (N,)
    f = counts / np.longdouble(tokens * top_k)  # (N,) share of the assignments, eq. 5
    p = probs.mean(axis=0)  # (N,) mean router probability, eq. 6
    terms = experts * (f * p)  # (N,) each expert's share of the loss
    loss = experts * np.sum(f * p)  # N·Σ f_i·p_i, eq. 4
    return dict(assignments=assignments, probs=probs, counts=counts, f=f, p=p, loss=loss,
                terms=terms)


def moe_load_balance(f, p):
    """N·Σ f_i·p_i (eq. 4) for f and p (N,), in long double: 1 when either is uniform, N when
    all traffic and all router mass sit on one expert.
    """
    f, p = np.asarray(f, dtype=np.longdouble), np.asarray(p, dtype=np.longdouble)
    n = len(f)
    return dict(loss=n * np.sum(f * p), terms=n * (f * p))


# ---- The reference values of tests/fixtures/ -----------------------------------------------------
# Not the reference: the cases tests/fixtures/make.py writes from the functions above. Copy as
# NumPy inlines none of it (site/build.mjs reads each file up to here).
def fixture():
    """Reference values for moeRoute and moeLoadBalance, computed independently of the core with
    NumPy (Debian's python3-numpy) by the functions above: the lines of tests/fixtures/moe.txt.

    Regenerate with:  /usr/bin/python3 tests/fixtures/make.py moe

    Format: as in fixture_format.py ('case NAME', then 'name rows cols numbers...'). Routing cases
    hold 'routerLogits' (tokens x experts) and 'topK', and the expected 'probs', 'assignments'
    (tokens x topK), 'counts', 'f', 'p' and 'loss'. Load-balance cases hold 'f', 'p' and the
    expected 'loss'.
    """
    from fixture_format import value  # tests/fixtures/, make.py's folder

    rng = np.random.default_rng(20260831)
    lines = ["# moe reference values: reference/moe.py's fixture() (NumPy)"]
    cases = [
        ("top1_small", rng.normal(size=(6, 4)), 1),
        ("top2_eight_experts", rng.normal(size=(20, 8)) * 2, 2),
        ("top1_skewed", rng.normal(size=(12, 5)) + np.array([2.0, 0, 0, 0, -1]), 1),
        ("top3_ties", np.round(rng.normal(size=(10, 6))), 3),
        ("topk_all_experts", rng.normal(size=(5, 3)), 3),
    ]
    for name, L, top_k in cases:
        r = moe_route(L, top_k)
        lines.append(f"case {name}")
        lines += [value("routerLogits", L), value("topK", [[top_k]])]
        lines += [value("probs", r["probs"]), value("assignments", r["assignments"])]
        lines += [value(key, [r[key]]) for key in ["counts", "f", "p"]]
        lines.append(value("loss", [[r["loss"]]]))
    for i, n in enumerate([2, 4, 7, 16]):
        f = rng.dirichlet(np.ones(n))
        p = rng.dirichlet(np.ones(n))
        lines.append(f"case balance_{i}")
        lines += [value("f", [f]), value("p", [p]), value("loss", [[moe_load_balance(f, p)["loss"]]])]
    return lines
