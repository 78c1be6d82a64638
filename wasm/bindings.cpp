// The Embind bindings: marshalling only, between wasm/tinyformer.js (their only caller) and the core's
// public API (tinyformer.hpp, runtime.hpp). Structured results cross as JSON text, arrays as fresh
// Float32Array / Uint8Array copies (never views into wasm memory, which go stale when it grows), sessions as
// one Handle class that JS must delete(). Every call turns a C++ exception into a JS Error named
// "TinyformerError" carrying what(): emcc 3.1.6 gives JS no readable message for a C++ exception.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "runtime.hpp"
#include "tinyformer.hpp"

using emscripten::val;

namespace tf {
namespace {

[[noreturn]] void throw_js_error(const std::string& message) {
  val error = val::global("Error").new_(message);
  error.set("name", val("TinyformerError"));
  error.throw_();
}

// Runs f; a C++ exception becomes a JS Error once the C++ catch block has ended (so the exception is freed).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  std::string message;
  try {
    return f();
  } catch (const std::bad_alloc&) {
    message = "out of memory: the browser's wasm memory cannot hold this; try a smaller model or batch";
  } catch (const std::length_error&) {  // a std::vector longer than a 32-bit address space allows
    message = "out of memory: an array this large does not fit in wasm memory; try a smaller model or batch";
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    message = "unknown C++ exception";
  }
  throw_js_error(message);
}

template <class T>
val typed_array(const char* type, const std::vector<T>& v) {
  return val::global(type).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

val tensor_data(const Tensor& t) {
  val out = val::object();
  out.set("data", typed_array("Float32Array", t.to_vector()));
  val shape = val::array();
  for (int64_t d : t.shape().dims()) shape.call<void>("push", static_cast<double>(d));
  out.set("shape", shape);
  return out;
}

// {values: JSON text, arrays: {name: {data, shape}}}; the wrapper parses the values.
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

// Story text from JS: {train, valid?, topWords?}, or null for tasks that make their own data.
std::optional<CorpusText> corpus_of(const val& text) {
  if (text.isNull() || text.isUndefined()) return std::nullopt;
  TF_CHECK(text["train"].isString(), "story text must be {train: string, valid?: string, topWords?: number}");
  CorpusText c;
  c.train = text["train"].as<std::string>();
  if (text["valid"].isString()) c.valid = text["valid"].as<std::string>();
  if (text["topWords"].isNumber()) c.top_words = static_cast<int64_t>(text["topWords"].as<double>());
  return c;
}

SavedRun saved_run_of(const std::string& bytes) {
  return load_saved_run_bytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

Ids digits_of(const val& digits) {
  std::vector<int32_t> d = int_vector(digits);
  for (int32_t x : d) TF_CHECK(x >= 0 && x <= 9, "the sorter reads digits 0-9, got ", x);
  TF_CHECK(!d.empty(), "the sorter needs at least one digit");
  return row_of(d);
}

}  // namespace

// One Session (core/run/session.hpp) for JS; counts the live ones so tests can see leaks.
class Handle {
 public:
  explicit Handle(std::unique_ptr<Session> s) : s_(std::move(s)) { ++live_; }
  ~Handle() { --live_; }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  static int live() { return live_; }

  bool trainable() const { return s_->trainable(); }
  std::string config_json() const { return s_->model().config().to_json(); }
  std::string vocabulary_json() const { return nlohmann::json(s_->vocab()).dump(); }
  std::string task_name() const { return tf::task_name(s_->task()); }
  double steps_done() const {
    return s_->trainable() ? static_cast<double>(s_->trainer("").steps_done()) : 0;
  }
  std::string train_config_json() const {
    return guarded([&] {
      TrainConfig c = s_->trainer("the training config").config();
      c.model = s_->model().config();
      return c.to_json();
    });
  }

  val encode(const std::string& text) const {
    return guarded([&] { return typed_array("Int32Array", s_->codec("reading words").encode(text)); });
  }
  std::string decode(const val& ids) const {
    return guarded([&] { return nlohmann::json(s_->codec("showing words").decode(int_vector(ids))).dump(); });
  }
  val step(int n) {
    return guarded([&] {
      StepTotals t = s_->step(n);
      val out = val::object();
      out.set("losses", typed_array("Float32Array", t.losses));
      out.set("step", static_cast<double>(t.step));
      out.set("lr", t.lr);
      out.set("seconds", t.seconds);
      out.set("tokens", t.tokens);
      out.set("flops", t.flops);
      out.set("skipped", static_cast<double>(t.skipped));
      out.set("skippedSteps", static_cast<double>(t.skipped_steps));
      return out;
    });
  }
  val validation_loss() const {
    return guarded([&] {
      std::optional<float> v = s_->trainer("validation").validation_loss();
      return v ? val(*v) : val::null();
    });
  }
  std::string evaluate(double seed) const {
    return guarded([&] { return s_->trainer("evaluation").evaluate(static_cast<uint64_t>(seed)).dump(); });
  }
  void copy_weights_from(const Handle& other) {
    guarded([&] { s_->copy_weights_from(*other.s_); });
  }
  void set_causal(bool causal) {
    guarded([&] { s_->set_causal(causal); });
  }
  val parameter(const std::string& name) const {
    return guarded([&] { return tensor_data(s_->parameter(name)); });
  }
  std::string parameters() const {
    return guarded([&] { return parameter_table_json(s_->model().module().named_parameters()).dump(); });
  }
  val checkpoint() const {
    return guarded([&] { return typed_array("Uint8Array", save_checkpoint_bytes(s_->checkpoint())); });
  }

  // ids [B * T] flat -> logits [B, T, V].
  val logits(const val& ids, int batch) const {
    return guarded([&] {
      std::vector<int32_t> x = int_vector(ids);
      TF_CHECK(batch >= 1 && x.size() % static_cast<size_t>(batch) == 0, "logits: ", x.size(),
               " ids do not make ", batch, " inputs of equal length");
      NoGrad no_grad;
      const TokenModel& net = s_->model().token_model("logits");
      return tensor_data(net.forward(Ids(x, Shape{batch, static_cast<int64_t>(x.size()) / batch})));
    });
  }
  val probabilities(const val& ids, float temperature, const val& forbidden) const {
    return guarded([&] {
      TF_CHECK(temperature > 0, "temperature must be > 0, got ", temperature);
      std::vector<int32_t> x = int_vector(ids);
      GuessOptions o;
      o.temperature = temperature;
      o.forbidden = int_vector(forbidden);
      std::vector<float> p = make_guesser(s_->model().token_model("probabilities"), o)(row_of(x));
      return tensor_data(
          Tensor::from_vector(p, Shape{static_cast<int64_t>(x.size()), s_->model().config().vocab}));
    });
  }
  val attention(const val& ids) const {
    return guarded([&] {
      return figure_value(
          token_attention(s_->model().token_model("attention maps"), row_of(int_vector(ids))));
    });
  }
  val sorter_attention(const val& digits) const {
    return guarded([&] {
      return figure_value(
          tf::sorter_attention(s_->model().sorter_model("sorter attention"), digits_of(digits)));
    });
  }
  val saliency(const val& digits) const {
    return guarded([&] {
      SaliencyResult r = sorter_saliency(s_->model().sorter_model("saliency"), digits_of(digits));
      Figure f;
      f.add("saliency", r.saliency);
      f.values["output"] = r.output.data;
      return figure_value(f);
    });
  }
  // ids [T] -> figure: "saliency" [T, T] (rows: positions, the word written there), values "written".
  val token_saliency(const val& ids) const {
    return guarded([&] {
      SaliencyResult r =
          tf::token_saliency(s_->model().transformer_model("saliency"), row_of(int_vector(ids)));
      Figure f;
      f.add("saliency", r.saliency);
      f.values["written"] = r.output.data;
      return figure_value(f);
    });
  }
  std::string toy_guesses() const {
    return guarded(
        [&] { return toy_position_two_guesses(s_->model().token_model("the toy guesses")).dump(); });
  }
  std::string undiffuse_census(int count, int steps, double seed) const {
    return guarded([&] {
      TF_CHECK(count >= 1 && count <= 100000 && steps >= 1 && steps <= 10000,
               "census: count 1..1e5, steps 1..1e4");
      Rng rng(static_cast<uint64_t>(seed));
      return toy_undiffuse_census(s_->model().token_model("the undiffuse census"), count, steps, rng).dump();
    });
  }
  std::string write(const std::string& request_json) const {
    return guarded([&] {
      return write_text(s_->model(), s_->codec("writing"), WriteRequest::from_json(request_json)).dump();
    });
  }

 private:
  static inline int live_ = 0;
  std::unique_ptr<Session> s_;
};

namespace {

// The run's settings as createRun gives them (already merged with the task's defaults by the wrapper).
std::unique_ptr<Handle> create_run(const std::string& config_json, const val& text) {
  return guarded([&] {
    std::optional<CorpusText> corpus = corpus_of(text);
    return std::make_unique<Handle>(
        Session::create(TrainConfig::from_json(config_json), corpus ? &*corpus : nullptr));
  });
}
std::unique_ptr<Handle> load_run(const std::string& bytes, const val& text) {
  return guarded([&] {
    std::optional<CorpusText> corpus = corpus_of(text);
    return std::make_unique<Handle>(Session::resume(saved_run_of(bytes), corpus ? &*corpus : nullptr));
  });
}
std::unique_ptr<Handle> load_model(const std::string& bytes) {
  return guarded([&] { return std::make_unique<Handle>(Session::view(saved_run_of(bytes))); });
}
std::string inspect_checkpoint(const std::string& bytes) {
  return guarded([&] { return describe_saved_run(saved_run_of(bytes)).dump(); });
}

std::string default_config(const std::string& task, const std::string& kind) {
  return guarded([&] {
    TaskKind t = parse_task(task);
    ModelKind k = parse_kind(kind.empty() ? (t == TaskKind::Sort ? "sorter" : "transformer") : kind);
    TrainConfig c = TrainConfig::for_task(t, k);
    c.model.kind = k;
    return c.to_json();
  });
}
std::string builtin_stories(double seed, double bytes) {
  return guarded([&] {
    TF_CHECK(bytes >= 1 && bytes <= 64e6, "builtinStories: bytes must be 1..64e6, got ", bytes);
    return generate_stories(static_cast<uint64_t>(seed), static_cast<int64_t>(bytes));
  });
}
std::string tokenize_text(const std::string& text, bool prompt) {
  return guarded(
      [&] { return nlohmann::json(tokenize(text, prompt ? TokenMode::Prompt : TokenMode::Corpus)).dump(); });
}

void set_threads(int n) {
  guarded([&] { runtime::set_threads(n); });
}
val pool_bytes() {
  runtime::MemoryStats m = runtime::host_memory();
  val out = val::object();
  out.set("live", static_cast<double>(m.live_bytes));
  out.set("cached", static_cast<double>(m.cached_bytes));
  return out;
}
double flops_done() { return static_cast<double>(runtime::flops_done()); }
std::string version() { return kVersion; }

val positional_encoding_figure(int positions, int dim) {
  return guarded([&] { return figure_value(positional_figure(positions, dim)); });
}
val attention_walkthrough_figure(const std::string& tokens_json, int d_model, int d_k, int heads,
                                 double seed) {
  return guarded([&] {
    auto tokens = json_fields::parse(tokens_json, "sentence").get<std::vector<std::string>>();
    return figure_value(tf::attention_walkthrough(tokens, d_model, d_k, heads, static_cast<uint64_t>(seed)));
  });
}
val entropy_vs_dk_figure(const std::string& dims_json, int queries, int keys, double seed) {
  return guarded([&] {
    auto dims = json_fields::parse(dims_json, "dims").get<std::vector<int64_t>>();
    return figure_value(tf::entropy_vs_dk(dims, queries, keys, static_cast<uint64_t>(seed)));
  });
}
val feed_forward_check_figure(int d_model, int positions, double seed) {
  return guarded(
      [&] { return figure_value(tf::feed_forward_check(d_model, positions, static_cast<uint64_t>(seed))); });
}
val layer_norm_check_figure(double seed) {
  return guarded([&] { return figure_value(tf::layer_norm_check(static_cast<uint64_t>(seed))); });
}
val residual_stream_figure(int positions, int d_model, int heads, int blocks, double seed) {
  return guarded([&] {
    return figure_value(tf::residual_stream(positions, d_model, heads, blocks, static_cast<uint64_t>(seed)));
  });
}
double parameter_estimate(double layers, double dim) {
  return block_parameter_estimate(static_cast<int64_t>(layers), static_cast<int64_t>(dim));
}

}  // namespace

EMSCRIPTEN_BINDINGS(tinyformer) {
  using namespace emscripten;
  class_<Handle>("Handle")
      .function("trainable", &Handle::trainable)
      .function("configJson", &Handle::config_json)
      .function("trainConfigJson", &Handle::train_config_json)
      .function("taskName", &Handle::task_name)
      .function("vocabularyJson", &Handle::vocabulary_json)
      .function("stepsDone", &Handle::steps_done)
      .function("encode", &Handle::encode)
      .function("decode", &Handle::decode)
      .function("step", &Handle::step)
      .function("validationLoss", &Handle::validation_loss)
      .function("evaluate", &Handle::evaluate)
      .function("copyWeightsFrom", &Handle::copy_weights_from)
      .function("setCausal", &Handle::set_causal)
      .function("parameter", &Handle::parameter)
      .function("parameters", &Handle::parameters)
      .function("checkpoint", &Handle::checkpoint)
      .function("logits", &Handle::logits)
      .function("probabilities", &Handle::probabilities)
      .function("attention", &Handle::attention)
      .function("sorterAttention", &Handle::sorter_attention)
      .function("saliency", &Handle::saliency)
      .function("tokenSaliency", &Handle::token_saliency)
      .function("toyGuesses", &Handle::toy_guesses)
      .function("undiffuseCensus", &Handle::undiffuse_census)
      .function("write", &Handle::write);
  function("liveHandles", &Handle::live);
  function("createRun", &create_run);
  function("loadRun", &load_run);
  function("loadModel", &load_model);
  function("inspectCheckpoint", &inspect_checkpoint);
  function("defaultConfig", &default_config);
  function("builtinStories", &builtin_stories);
  function("tokenize", &tokenize_text);
  function("setThreads", &set_threads);
  function("threads", &runtime::threads);
  function("poolBytes", &pool_bytes);
  function("threaded", &runtime::threaded);
  function("version", &version);
  function("flopCount", &flops_done);
  function("positionalEncoding", &positional_encoding_figure);
  function("attentionWalkthrough", &attention_walkthrough_figure);
  function("entropyVsDk", &entropy_vs_dk_figure);
  function("feedForwardCheck", &feed_forward_check_figure);
  function("layerNormCheck", &layer_norm_check_figure);
  function("residualStream", &residual_stream_figure);
  function("blockParameterEstimate", &parameter_estimate);
}

}  // namespace tf
