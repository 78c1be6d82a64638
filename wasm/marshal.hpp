// Marshalling between JS values and the core's types, shared by the Embind files (bindings_*.cpp).
// Arrays cross as fresh typed-array copies (never views into wasm memory, which go stale when it grows);
// guarded() keeps a C++ exception's message as the module's pending error (the JS wrapper takes it right
// after the call and throws a TinyformerError), since emcc 3.1.6 gives JS no readable message for a C++
// exception, and a JS error thrown through Embind's glue would skip freeing the call's arguments.
#pragma once
#include <emscripten/val.h>

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tinyformer.hpp"

namespace tf::marshal {

using emscripten::val;

// What a JS caller sees of the exception being handled (call inside a catch block only), kept as the pending
// error; take_error() returns it as {message, kind} (null when none) and clears it. kind names the errors a
// caller acts on: a refused checkpoint's reason ("skipped-step", "not-finite"), else null.
void keep_current_exception();
val take_error();

// Runs f; a C++ exception becomes the pending error and the call returns an empty value (undefined, null).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  using R = decltype(f());
  try {
    return f();
  } catch (...) {
    keep_current_exception();
  }
  if constexpr (std::is_same_v<R, val>)
    return val::undefined();
  else if constexpr (!std::is_void_v<R>)
    return R();
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
SavedRun saved_run_of(double pointer, double size);    // checkpoint bytes the wrapper put in wasm memory
val block_value(const DeviceBlock& b);                 // {pointer, bytes}: a CPU pointer is a wasm offset
std::string blocks_json(const std::vector<DeviceBlock>& blocks);  // [{name, shape, pointer, bytes}]
val step_stats_array(const std::vector<StepStats>& stats);  // [{step, loss, lr, gradNorm, skipped, ...}]
val step_totals_value(const StepTotals& t);  // {losses: Float32Array, step, lr, seconds, tokens, flops, ...}
NamedTensors named_tensors_of(const val& weights);  // [{name, shape, data}] -> CPU tensors

}  // namespace tf::marshal
