// Marshalling between JS values and the core's types, shared by the Embind files (bindings_*.cpp).
// Arrays cross as fresh typed-array copies (never views into wasm memory, which go stale when it grows);
// guarded() turns a C++ exception into a JS Error named "TinyformerError" carrying what(), since emcc 3.1.6
// gives JS no readable message for a C++ exception.
#pragma once
#include <emscripten/val.h>

#include <optional>
#include <string>
#include <vector>

#include "tinyformer.hpp"

namespace tf::marshal {

using emscripten::val;

[[noreturn]] void throw_js_error(const std::string& message);
// The message a JS caller sees for the exception being handled (call inside a catch block only).
std::string current_exception_message();

// Runs f; a C++ exception becomes a JS Error once the C++ catch block has ended (so the exception is freed).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  std::string message;
  try {
    return f();
  } catch (...) {
    message = current_exception_message();
  }
  throw_js_error(message);
}

template <class T>
val typed_array(const char* type, const std::vector<T>& v) {
  return val::global(type).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

val tensor_data(const Tensor& t);   // {data: Float32Array, shape: number[]}
val figure_value(const Figure& f);  // {values: JSON text, arrays: {name: {data, shape}}}
std::vector<int32_t> int_vector(const val& v);
Ids row_of(const std::vector<int32_t>& x);             // one input row [1, T]
Ids digits_of(const val& digits);                      // the sorter's input [1, S], digits checked
std::optional<CorpusText> corpus_of(const val& text);  // {train, valid?, topWords?} or null
SavedRun saved_run_of(const std::string& bytes);       // checkpoint bytes from a Uint8Array
val block_value(const DeviceBlock& b);                 // {pointer, bytes}: a CPU pointer is a wasm offset
std::string blocks_json(const std::vector<DeviceBlock>& blocks);  // [{name, shape, pointer, bytes}]
val step_stats_array(const std::vector<StepStats>& stats);  // [{step, loss, lr, gradNorm, skipped, ...}]
val step_totals_value(const StepTotals& t);  // {losses: Float32Array, step, lr, seconds, tokens, flops, ...}
NamedTensors named_tensors_of(const val& weights);  // [{name, shape, data}] -> CPU tensors

}  // namespace tf::marshal
