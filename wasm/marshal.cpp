// Marshalling helpers of the Embind layer (see marshal.hpp): JS errors, typed-array copies, figures, and the
// checked conversions of the JS inputs that several bindings share.
#include "marshal.hpp"

#include <new>
#include <stdexcept>

namespace tf::marshal {

namespace {

// What a JS caller sees of a C++ exception: its message, and a kind for the errors a caller acts on
// (refusal_name of a CheckpointRefused: "skipped-step", "not-finite"; null for the rest).
struct JsError {
  std::string message;
  const char* kind = nullptr;
};
std::optional<JsError> pending;

JsError current_js_error() {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return {"out of memory: the browser's wasm memory cannot hold this; try a smaller model or batch"};
  } catch (const std::length_error&) {  // a std::vector longer than a 32-bit address space allows
    return {"out of memory: an array this large does not fit in wasm memory; try a smaller model or batch"};
  } catch (const CheckpointRefused& e) {
    return {e.what(), refusal_name(e.reason)};
  } catch (const std::exception& e) {
    return {e.what()};
  } catch (...) {
    return {"unknown C++ exception"};
  }
}

}  // namespace

void keep_current_exception() { pending = current_js_error(); }

val take_error() {
  if (!pending) return val::null();
  val error = val::object();
  error.set("message", pending->message);
  error.set("kind", pending->kind ? val(pending->kind) : val::null());
  pending.reset();
  return error;
}

val tensor_data(const Tensor& t) {
  val out = val::object();
  out.set("data", typed_array("Float32Array", t.to_vector()));
  val shape = val::array();
  for (int64_t d : t.shape().dims()) shape.call<void>("push", static_cast<double>(d));
  out.set("shape", shape);
  return out;
}

val figure_value(const Figure& f) {
  val arrays = val::object();
  for (const auto& [name, t] : f.arrays) arrays.set(name, tensor_data(t));
  val out = val::object();
  out.set("values", f.values.dump());
  out.set("arrays", arrays);
  return out;
}

std::vector<int32_t> int_vector(const val& v) { return emscripten::convertJSArrayToNumberVector<int32_t>(v); }

Ids row_of(const std::vector<int32_t>& x) { return Ids(x, Shape{1, static_cast<int64_t>(x.size())}); }

Ids digits_of(const val& digits) {
  std::vector<int32_t> d = int_vector(digits);
  for (int32_t x : d) TF_CHECK(x >= 0 && x <= 9, "the sorter reads digits 0-9, got ", x);
  TF_CHECK(!d.empty(), "the sorter needs at least one digit");
  return row_of(d);
}

std::optional<CorpusText> corpus_of(const val& text) {
  if (text.isNull() || text.isUndefined()) return std::nullopt;
  TF_CHECK(text["train"].isString(), "story text must be {train: string, valid?: string, topWords?: number}");
  CorpusText c;
  c.train = text["train"].as<std::string>();
  if (text["valid"].isString()) c.valid = text["valid"].as<std::string>();
  if (text["topWords"].isNumber()) c.top_words = static_cast<int64_t>(text["topWords"].as<double>());
  return c;
}

SavedRun saved_run_of(double pointer, double size) {
  return load_saved_run_bytes(reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(pointer)),
                              static_cast<size_t>(size));
}

val block_value(const DeviceBlock& b) {
  val out = val::object();
  out.set("pointer", static_cast<double>(reinterpret_cast<uintptr_t>(b.data)));
  out.set("bytes", static_cast<double>(b.bytes));
  return out;
}

std::string blocks_json(const std::vector<DeviceBlock>& blocks) {
  nlohmann::json out = nlohmann::json::array();
  for (const DeviceBlock& b : blocks)
    out.push_back({{"name", b.name},
                   {"shape", b.shape.dims()},
                   {"pointer", reinterpret_cast<uintptr_t>(b.data)},
                   {"bytes", b.bytes}});
  return out.dump();
}

namespace {

// What one step's stats and several steps' totals both say.
val step_figures(int64_t step, float lr, double seconds, double tokens, double flops, int64_t skipped_steps) {
  val o = val::object();
  o.set("step", static_cast<double>(step));
  o.set("lr", lr);
  o.set("seconds", seconds);
  o.set("tokens", tokens);
  o.set("flops", flops);
  o.set("skippedSteps", static_cast<double>(skipped_steps));
  return o;
}

}  // namespace

val step_stats_array(const std::vector<StepStats>& stats) {
  val out = val::array();
  for (const StepStats& s : stats) {
    val o = step_figures(s.step, s.lr, s.seconds, static_cast<double>(s.tokens), static_cast<double>(s.flops),
                         s.skipped_steps);
    o.set("loss", s.loss);
    o.set("gradNorm", s.grad_norm);
    o.set("skipped", s.skipped);
    out.call<void>("push", o);
  }
  return out;
}

val step_totals_value(const StepTotals& t) {
  val o = step_figures(t.step, t.lr, t.seconds, t.tokens, t.flops, t.skipped_steps);
  o.set("losses", typed_array("Float32Array", t.losses));
  o.set("skipped", static_cast<double>(t.skipped));
  return o;
}

NamedTensors named_tensors_of(const val& weights) {
  NamedTensors out;
  const size_t n = weights["length"].as<size_t>();
  for (size_t i = 0; i < n; ++i) {
    val w = weights[i];
    TF_CHECK(w["name"].isString(), "weights must be [{name, shape, data}]");
    std::vector<int64_t> dims;  // Embind has no int64 views: read as doubles
    for (double d : emscripten::convertJSArrayToNumberVector<double>(w["shape"]))
      dims.push_back(static_cast<int64_t>(d));
    std::vector<float> data = emscripten::convertJSArrayToNumberVector<float>(w["data"]);
    Shape shape(dims);
    TF_CHECK(static_cast<size_t>(shape.numel()) == data.size(), "weight '", w["name"].as<std::string>(),
             "' has ", data.size(), " numbers for the shape ", shape.str());
    out.emplace_back(w["name"].as<std::string>(), Tensor::from_vector(data, shape));
  }
  return out;
}

}  // namespace tf::marshal
