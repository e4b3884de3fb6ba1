// How a result struct lists its fields, once, for every code that hands a result on: the
// WebAssembly bindings (to JavaScript objects), the golden file and the native benchmark (to
// JSON). Beside each result struct its header defines
//
//   template <class Visit> void for_each_field(const SamplingResult& r, Visit&& visit) {
//     LLMMATH_FIELD(probs);
//     LLMMATH_FIELD(top_k_mass);
//   }
//
// LLMMATH_FIELD(member) calls visit("member", r.member): the name handed on is the member's own
// name, so a field cannot be renamed on its way out. Code that speaks JavaScript derives the
// camelCase name from it mechanically (top_k_mass → topKMass) and nowhere else. An optional
// member is handed on as the optional: the visitor leaves out an empty one. A member that is a
// struct with a for_each_field of its own is handed on as it is, to be visited in turn.
//
// LLMMATH_MASKED_FIELD(member, mask) calls visit("member", r.member, r.mask): a matrix whose
// entries are shown only where the boolean array `mask` is true (the masked ones have no value
// to show, as ALiBi's bias above the diagonal).
#pragma once

#define LLMMATH_FIELD(member) visit(#member, r.member)
#define LLMMATH_MASKED_FIELD(member, mask) visit(#member, r.member, r.mask)
