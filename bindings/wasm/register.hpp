// Registers one binding under every call arity from 0 to its full arity, padding the missing
// trailing arguments with `undefined`. embind itself rejects a call with the wrong number of
// arguments with a generic message; padding instead lets the adapters report the missing
// parameter by name ("v must be a matrix ..., got undefined") and lets optional trailing
// parameters (opts, topK, alpha) simply be left off, as the API allows.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstddef>
#include <utility>

namespace llmmath::js {

template <class Fn>
struct arity_of;
template <class... Args>
struct arity_of<emscripten::val (*)(Args...)> {
  static constexpr std::size_t value = sizeof...(Args);
};

template <std::size_t>
using Val = emscripten::val;

template <auto F, std::size_t... Missing, class... Given>
emscripten::val pad_impl(std::index_sequence<Missing...>, Given... given) {
  return F(given..., ((void)Missing, emscripten::val::undefined())...);
}

template <auto F, class... Given>
emscripten::val padded(Given... given) {
  constexpr std::size_t total = arity_of<decltype(F)>::value;
  return pad_impl<F>(std::make_index_sequence<total - sizeof...(Given)>{}, given...);
}

template <auto F, std::size_t... I>
void register_arity(const char* name, std::index_sequence<I...>) {
  emscripten::function(name, &padded<F, Val<I>...>);
}

template <auto F, std::size_t... N>
void register_arities(const char* name, std::index_sequence<N...>) {
  (register_arity<F>(name, std::make_index_sequence<N>{}), ...);
}

/// Registers F (a function of vals returning a val) as `name` for 0 … all of its arguments.
template <auto F>
void register_function(const char* name) {
  register_arities<F>(name, std::make_index_sequence<arity_of<decltype(F)>::value + 1>{});
}

}  // namespace llmmath::js
