// Registration of the core's API in the WebAssembly module: every function of
// LLMMATH_API_FUNCTIONS (bindings/api/adapters.hpp) under its JavaScript name, the limits the
// boundary checks before it reads an argument, and the core's formatter for its messages. It only
// registers: the adapters translate (bindings/api/adapters.hpp), Read<val> and the result's
// hand-over are convert.hpp's.
//
// Every function here is internal: boundary.js calls it with snapshots it built (Float64Array
// vectors, { rows, cols, values } matrices, and an options object holding only known keys whose
// values it checked), and replaces it on the module object by the public function of the same
// name. Each takes a `sink` last and returns undefined, handing the result to the sink, or the
// message of the core's error as a string.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <deque>
#include <string>

#include "../api/adapters.hpp"
#include "convert.hpp"
#include "llmmath/check.hpp"
#include "llmmath/json.hpp"
#include "memory.hpp"

using emscripten::val;
namespace js = llmmath::js;
namespace api = llmmath::api;

namespace {

// The test-only leaky build leaks in quantize() alone (memory.hpp), so that the leak test can
// tell the row that leaks from the rows that do not.
template <auto Adapter>
constexpr bool leaks_when_planted = false;
template <>
constexpr bool leaks_when_planted<&api::quantize<val>> = true;

// One internal function: the adapter's arguments, then the sink.
template <auto Adapter, class... Args>
val entry(Args... args, val sink) {
  return js::guarded([&] {
    const auto result = Adapter(args...);
    if constexpr (leaks_when_planted<Adapter>) js::plant_leak();
    js::send(sink, result);
  });
}

template <std::size_t>
using argument = val;

template <auto Adapter, std::size_t... I>
auto entry_of_arity(std::index_sequence<I...>) {
  return &entry<Adapter, argument<I>...>;
}

/// The JavaScript name of an adapter, made once and kept (embind keeps the pointer it is given).
const char* js_name(const char* adapter) {
  static std::deque<std::string> names;
  return names.emplace_back(api::camel_case(adapter)).c_str();
}

// What the heap holds now (memory.hpp): the leak tests compare it before and after many calls.
val memory_stats() {
  const js::HeapStats s = js::heap_stats();
  val out = val::object();
  out.set("bytesInUse", s.bytes_in_use);
  out.set("blocksInUse", s.blocks_in_use);
  out.set("heapTop", s.heap_top);
  return out;
}

double memory_in_use() { return js::heap_stats().bytes_in_use; }

// The core's own checks of a length or shape that boundary.js measured, so that it refuses an
// argument before reading its entries with the core's words; undefined when it passes.
val require_vector_length(double n, std::string name) {
  return js::guarded([&] { llmmath::require_vector_length(n, name); });
}

val require_matrix_dims(double rows, double cols, std::string name) {
  return js::guarded([&] { llmmath::require_matrix_dims(rows, cols, name); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(llmmath) {
  using emscripten::function;
#define LLMMATH_REGISTER(adapter, arity) \
  function(js_name(#adapter),            \
           entry_of_arity<&api::adapter<val>>(std::make_index_sequence<arity>()));
  LLMMATH_API_FUNCTIONS(LLMMATH_REGISTER)
#undef LLMMATH_REGISTER
  function("memoryStats", &memory_stats);
  function("memoryInUse", &memory_in_use);
  // Policy is the core's: boundary.js reads these, and takes them off the module object.
  function("describeNumber", &llmmath::describe);
  function("requireVectorLength", &require_vector_length);
  function("requireMatrixDims", &require_matrix_dims);
  emscripten::constant("maxVectorLength", static_cast<double>(llmmath::max_vector_length));
  emscripten::constant("maxMatrixSide", static_cast<double>(llmmath::max_matrix_side));
  emscripten::constant("maxTextBytes", static_cast<double>(llmmath::json::max_text_bytes));
  emscripten::constant("maxJsonDepth", static_cast<double>(llmmath::json::max_depth));
}
