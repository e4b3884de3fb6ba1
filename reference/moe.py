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
