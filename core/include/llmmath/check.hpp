// The one precondition helper of the core. Every public function validates its inputs with
// these and nothing else, so every error a reader or course author sees has the same shape:
//   "<parameter> must be <expectation>, got <value>"
//
// Names. The core names each parameter, option, field or function of its API by its C++ name
// (kv_heads, opts.tensor_parallel, router_logits[2][0], model_from_config): the name in this
// code, its tests and a C++ caller's hands. A binding shows such a name as its own language
// spells it, the name the person who passed the bad value knows (JavaScript: kvHeads,
// ../shared/spec/core-api.md). Which words are renamed is said, not guessed from their look,
// because the same text quotes snake_case names no binding may touch: a config.json's keys
// (num_key_value_heads, as the file writes them) and a caller's own strings. So the core puts
// name_mark (the byte 0xFF, which no UTF-8 text holds, and every string from JavaScript is
// UTF-8) around each name of its API it writes, and around nothing else:
//   fail("kv_heads", ...)                 marks the name it is given
//   "... " + api_name("gated_mlp") + ...  marks a name inside an expectation or a note
//   fail_key("config.head_dim", ...)      quotes a key of the caller's own data, unmarked
// A failed check throws InvalidArgument: what() is the plain text ("kv_heads must be ..."),
// marked() the marked text. A binding makes the one rename as text leaves for its caller, in a
// thrown message and in every string of a result (api::js_text, bindings/api/adapters.hpp:
// each marked name camelCased, the marks removed); a C++ caller reads a note through
// plain_text(). The marks cost nothing on success: fail() adds them to a message it builds
// anyway, and a note builds its api_name() only when it is written. The core knows nothing of
// JavaScript, only that a binding may respell what it marked.
//
// A check that passes costs its comparison and nothing more: the message is built only once
// the check has failed. Formatting a number (describe(): snprintf and strtod, up to 17 times)
// and concatenating strings cost more than a widget-size call's own arithmetic, several times
// over in WebAssembly. Hence two ways to write a check:
//   require(ok, "name", "expected", "got");                  every part literal text
//   if (!(ok)) fail("name", "expected " + ..., describe(x)); a part computed, on failure only
// require() takes string_views, so literals build nothing; anything computed in its arguments
// would be computed on every call, which is what fail() behind an `if` avoids. A condition on
// doubles is negated as written, !(x >= 0), never rearranged to x < 0, so that NaN still fails
// it; one on sizes and counts is written directly (rows != cols). Names are string_views for
// the same reason as require(): a literal name is never copied into a std::string.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace llmmath {

/// The byte around each name of the API in a message or note (see above).
constexpr char name_mark = '\xFF';

/// A name of the API inside a message's text or a note, marked: api_name("gated_mlp"). It builds
/// a string, so a message calls it only once its check has failed.
std::string api_name(std::string_view name);

/// Marked text without its marks: every name as C++ writes it.
std::string plain_text(std::string_view marked);

/// What every failed check throws: a std::invalid_argument whose what() is the plain text,
/// carrying the marked text for a binding to rename (see above).
class InvalidArgument : public std::invalid_argument {
 public:
  explicit InvalidArgument(const std::string& marked);
  /// The message with each name of the API between two name_marks.
  const std::string& marked() const noexcept { return *marked_; }

 private:
  // shared, because an exception is copied as it is thrown and caught, and that must not throw
  std::shared_ptr<const std::string> marked_;
};

/// Throws InvalidArgument("<name> must be <expected>, got <got>"), `name` marked as a name of
/// the API (a parameter by its C++ name, or a path to one: "opts.devices.memory_bytes",
/// "router_logits[2][0]"). Called only once a check has failed, so that the message is built
/// only then.
[[noreturn]] void fail(std::string_view name, std::string_view expected, std::string_view got);

/// As fail(), naming a key of the caller's own data as the caller wrote it (config.json's
/// "config.num_key_value_heads", a shape's key as the caller's object has it), not marked, so no
/// binding renames it.
[[noreturn]] void fail_key(std::string_view key, std::string_view expected, std::string_view got);

/// Throws as fail() unless `ok`; for messages made only of literal text (see above).
inline void require(bool ok, std::string_view name, std::string_view expected,
                    std::string_view got) {
  if (!ok) fail(name, expected, got);
}

/// Formats a number for an error message: the shortest form that reads back to the same double,
/// exponents unpadded as JavaScript writes them ("1.5", "1e-9", "1e-300", "NaN", "Infinity").
std::string describe(double x);

/// Requires x to be finite (not NaN, not ±Infinity).
void require_finite(double x, std::string_view name);

// Why the core takes counts as doubles. The whole numbers a caller chooses (tokens, heads,
// head_dim, kv_heads, layers, batch, hidden, intermediate, distractors, distances, gamma, rounds,
// bits, top_k, count, seed) arrive from JavaScript as numbers, and it is the core that must refuse
// 2.5, NaN or 1e300 with a message naming the parameter. Declared as an integer type, such a
// parameter could not: embind converts a number to an int as WebAssembly does (ToInt32:
// 2.5 → 2, NaN → 0, 1e300 → 0) before any C++ runs, so the mistake would arrive as a valid
// count; and converting NaN or 1e300 to an integer type in C++ is undefined behaviour. A
// double holds whatever was passed, and every whole number up to 2^53 exactly (distractors go
// that far). So each of these is a double, checked as a whole number in its own range
// (require_integer(), or require_integers() for a swept array), and cast to Eigen::Index or an
// unsigned type only after that check.
// Counts that are integer types: the sizes the bindings measure from the arrays they built
// (rows, cols, lengths: std::size_t or Eigen::Index in require_matrix_dims(),
// require_vector_length(), require_attention_dims(), require_router_logits_dims() and
// require_smooth_quant_layer_dims()), whole and non-negative by construction; and the
// indices and tallies the core returns (positions, order, cutoff, assignments, counts,
// AlibiHead::head, largest_channel, sample()'s tokens), which no caller passes in.

/// Requires x to be a finite whole number in [lo, hi].
void require_integer(double x, std::string_view name, double lo, double hi);

/// Requires every entry of M to be finite; names the first offending entry as name[i][j].
void require_finite(const Eigen::MatrixXd& M, std::string_view name);

/// Requires every entry of x to be finite; names the first offending entry as name[i].
void require_finite(const Eigen::VectorXd& x, std::string_view name);

/// Size limits of the public API (core-api.md, "Limits"): what a page can reasonably hold.
/// Functions whose work grows faster than their inputs set lower limits of their own
/// (attention.hpp, moe.hpp, rope.hpp, quantization.hpp), each with its worst case measured through
/// the JavaScript API on the reference machine (2 cores, Node 20; bench/limits.js).
constexpr std::size_t max_matrix_side = 4096;
constexpr std::size_t max_matrix_elements = std::size_t{1} << 24;
/// At 2^20 entries the vector functions take, through the JavaScript API on the reference
/// machine (fastest of five calls, median in brackets): sampling 0.2 s (0.3 s), rope with
/// d = 2^20 0.5 s (0.6 s), smooth_quant 0.15 s (0.2 s), quantize 0.1 s (0.15 s),
/// moe_load_balance 40 ms.
constexpr std::size_t max_vector_length = std::size_t{1} << 20;

/// Requires a non-empty rows×cols matrix within the size limits, before it is even built. The
/// sides are doubles (whole numbers, exact to 2^53) because a side measured in JavaScript may not
/// fit WebAssembly's 32-bit std::size_t: the bindings ask this check before reading the entries.
void require_matrix_dims(double rows, double cols, std::string_view name);

/// Requires a non-empty matrix within the size limits.
void require_matrix_dims(const Eigen::MatrixXd& M, std::string_view name);

/// Requires a non-empty vector of length n within the size limit, before it is even built (n a
/// double for the reason require_matrix_dims() gives).
void require_vector_length(double n, std::string_view name);

/// Requires a non-empty vector within the size limit.
void require_vector_length(const Eigen::VectorXd& x, std::string_view name);

/// Largest number of points of a sweep (one input of a function swept over an array of values,
/// for a curve a page draws in one call): 4096, more points than a chart has pixels across.
constexpr std::size_t max_sweep_points = 4096;

/// Requires a swept input: a non-empty vector of at most max_sweep_points entries.
void require_sweep_length(const Eigen::VectorXd& xs, std::string_view name);

/// Requires every entry of xs to be a whole number in [lo, hi]; names the first one that is not
/// as name[i] (the name is built only for it).
void require_integers(const Eigen::VectorXd& xs, std::string_view name, double lo, double hi);

/// "name[i]": one entry of a vector input, named in a message (built only once a check fails).
std::string entry_name(std::string_view name, Eigen::Index i);

/// Requires x to be a probability distribution: a non-empty vector within the size limit whose
/// entries are finite and ≥ 0 (naming the first bad one as name[i]) and whose sum is within
/// `tolerance` of 1 (the caller's rounding, e.g. decimals typed on a page).
void require_distribution(const Eigen::VectorXd& x, std::string_view name, double tolerance);

}  // namespace llmmath
