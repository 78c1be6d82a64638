// The Embind bindings: the core's public API as a few coarse calls for wasm/tinyformer.js, their only
// caller. Structured results cross as JSON text, arrays as fresh Float32Array / Uint8Array copies (never
// views into wasm memory, which go stale when it grows), models and runs as one Handle class that JS must
// delete(). Every call turns a C++ exception into a JS Error named "TinyformerError" carrying what():
// emcc 3.1.6 gives JS no readable message for a C++ exception.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <optional>

#include "autograd/node.hpp"
#include "backend/backend.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "backend/host_pool.hpp"
#include "data/story_grammar.hpp"
#include "data/tokenizer.hpp"
#include "data/word_codec.hpp"
#include "interp/attention_maps.hpp"
#include "interp/parameter_table.hpp"
#include "interp/pieces.hpp"
#include "interp/saliency.hpp"
#include "io/model_loader.hpp"
#include "sample/guesser.hpp"
#include "sample/write_text.hpp"
#include "train/trainer.hpp"
#include "util/error.hpp"
#include "util/version.hpp"

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

val float_array(const std::vector<float>& v) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}

val tensor_data(const Tensor& t) {
  val out = val::object();
  out.set("data", float_array(t.to_vector()));
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

std::string text_of(const val& v) { return v.isString() ? v.as<std::string>() : std::string(); }

// Story text for a run: {train, valid?, topWords?} from JS.
std::shared_ptr<const StoryData> story_data(const val& text, const std::vector<std::string>* vocab) {
  TF_CHECK(!text.isNull() && !text.isUndefined() && text["train"].isString(),
           "the stories task needs text: {train: string, valid?: string}");
  std::string train = text["train"].as<std::string>(), valid = text_of(text["valid"]);
  if (vocab)
    return std::make_shared<const StoryData>(
        StoryData::with_vocab(Vocabulary::from_entries(*vocab), train, valid));
  int64_t top = text["topWords"].isNumber() ? static_cast<int64_t>(text["topWords"].as<double>())
                                            : Vocabulary::kDefaultTop;
  TF_CHECK(top >= 1 && top <= 1000000, "topWords must be 1..1000000, got ", top);
  return std::make_shared<const StoryData>(StoryData::from_text(train, valid, top));
}

}  // namespace

// A model in wasm memory: a training run (Trainer) or a model loaded for viewing and writing.
class Handle {
 public:
  explicit Handle(std::unique_ptr<Trainer> trainer) : trainer_(std::move(trainer)) {
    init(trainer_->task().vocabulary());
  }
  Handle(std::unique_ptr<Model> model, std::vector<std::string> vocab) : model_(std::move(model)) {
    init(vocab);
  }
  ~Handle() { --live_; }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  static int live() { return live_; }

  const Model& model() const { return trainer_ ? trainer_->model() : *model_; }
  bool trainable() const { return trainer_ != nullptr; }
  std::string config_json() const { return model().config().to_json(); }
  std::string vocabulary_json() const { return nlohmann::json(vocab_).dump(); }

  std::string train_config_json() const {
    return guarded([&] {
      TrainConfig c = run("the training config").config();
      c.model = model().config();
      return c.to_json();
    });
  }
  std::string task_name() const {
    return guarded([&] { return run("the task").task().name(); });
  }
  double steps_done() const { return trainer_ ? static_cast<double>(trainer_->steps_done()) : 0.0; }

  val encode(const std::string& text) const {
    return guarded([&] {
      std::vector<int32_t> ids = codec("reading words").encode(text);
      return val::global("Int32Array").new_(emscripten::typed_memory_view(ids.size(), ids.data()));
    });
  }
  std::string decode(const val& ids) const {
    return guarded([&] { return nlohmann::json(codec("showing words").decode(int_vector(ids))).dump(); });
  }

  val step(int n) {
    return guarded([&] {
      TF_CHECK(n >= 1 && n <= 1000000, "step(n) needs 1 <= n <= 1e6, got ", n);
      Trainer& t = run("training");
      std::vector<float> losses;
      double seconds = 0, tokens = 0, flops = 0;
      float lr = 0;
      int skipped = 0;
      for (int i = 0; i < n; ++i) {
        StepStats s = t.step();
        skipped += s.skipped ? 1 : 0;
        losses.push_back(s.loss);
        seconds += s.seconds;
        tokens += static_cast<double>(s.tokens);
        flops += static_cast<double>(s.flops);
        lr = s.lr;
      }
      val out = val::object();
      out.set("losses", float_array(losses));
      out.set("step", static_cast<double>(t.steps_done()));
      out.set("lr", lr);
      out.set("seconds", seconds);
      out.set("tokens", tokens);
      out.set("flops", flops);
      out.set("skipped", skipped);
      out.set("skippedSteps", static_cast<double>(t.skipped_steps()));
      return out;
    });
  }
  val validation_loss() const {
    return guarded([&] {
      std::optional<float> v = run("validation").validation_loss();
      return v ? val(*v) : val::null();
    });
  }
  std::string evaluate(double seed) const {
    return guarded([&] { return run("evaluation").evaluate(static_cast<uint64_t>(seed)).dump(); });
  }
  void load_weights(const std::string& bytes) {
    guarded([&] { run("loading weights").load_weights(checkpoint_from(bytes)); });
  }
  void set_causal(bool causal) {
    guarded([&] { model().transformer_model("switching attention to causal").set_causal(causal); });
  }

  // ids [B * T] flat -> logits [B, T, V].
  val logits(const val& ids, int batch) const {
    return guarded([&] {
      std::vector<int32_t> x = int_vector(ids);
      TF_CHECK(batch >= 1 && x.size() % static_cast<size_t>(batch) == 0, "logits: ", x.size(),
               " ids do not make ", batch, " inputs of equal length");
      NoGrad no_grad;
      const TokenModel& net = model().token_model("logits");
      return tensor_data(net.forward(Ids(x, Shape{batch, static_cast<int64_t>(x.size()) / batch})));
    });
  }
  val probabilities(const val& ids, float temperature, const val& forbidden) const {
    return guarded([&] {
      std::vector<int32_t> x = int_vector(ids);
      GuessOptions o;
      o.temperature = temperature;
      o.forbidden = int_vector(forbidden);
      TF_CHECK(temperature > 0, "temperature must be > 0, got ", temperature);
      int64_t T = static_cast<int64_t>(x.size()), V = model().config().vocab;
      std::vector<float> p = make_guesser(model().token_model("probabilities"), o)(Ids(x, Shape{1, T}));
      return tensor_data(Tensor::from_vector(p, Shape{T, V}));
    });
  }
  val attention(const val& ids) const {
    return guarded([&] {
      std::vector<int32_t> x = int_vector(ids);
      int64_t T = static_cast<int64_t>(x.size());
      return figure_value(token_attention(model().token_model("attention maps"), Ids(x, Shape{1, T})));
    });
  }
  val sorter_attention(const val& digits) const {
    return guarded([&] {
      return figure_value(tf::sorter_attention(model().sorter_model("sorter attention"), digits_of(digits)));
    });
  }
  val saliency(const val& digits) const {
    return guarded([&] {
      SaliencyResult r = sorter_saliency(model().sorter_model("saliency"), digits_of(digits));
      Figure f;
      f.add("saliency", r.saliency);
      f.values["output"] = r.output.data;
      return figure_value(f);
    });
  }
  // ids [T] -> figure: "saliency" [T, T] (rows: positions, the word written there), values "written".
  val token_saliency(const val& ids) const {
    return guarded([&] {
      std::vector<int32_t> x = int_vector(ids);
      int64_t T = static_cast<int64_t>(x.size());
      SaliencyResult r = tf::token_saliency(model().transformer_model("saliency"), Ids(x, Shape{1, T}));
      Figure f;
      f.add("saliency", r.saliency);
      f.values["written"] = r.output.data;
      return figure_value(f);
    });
  }
  std::string toy_guesses() const {
    return guarded([&] { return toy_position_two_guesses(model().token_model("the toy guesses")).dump(); });
  }
  std::string undiffuse_census(int count, int steps, double seed) const {
    return guarded([&] {
      TF_CHECK(count >= 1 && count <= 100000 && steps >= 1 && steps <= 10000,
               "census: count 1..1e5, steps 1..1e4");
      Rng rng(static_cast<uint64_t>(seed));
      return toy_undiffuse_census(model().token_model("the undiffuse census"), count, steps, rng).dump();
    });
  }
  std::string write(const std::string& request_json) const {
    return guarded([&] { return write_text(model(), codec("writing"), write_request(request_json)).dump(); });
  }
  std::string parameters() const {
    return guarded([&] {
      std::vector<ParameterRow> rows = parameter_table(model().module());
      nlohmann::json table = nlohmann::json::array(), groups = nlohmann::json::array();
      for (const ParameterRow& r : rows)
        table.push_back({{"name", r.name}, {"shape", r.shape}, {"group", r.group}, {"count", r.count}});
      for (const auto& [g, n] : parameter_groups(rows)) groups.push_back({{"group", g}, {"count", n}});
      return nlohmann::json{
          {"rows", table}, {"groups", groups}, {"total", model().module().parameter_count()}}
          .dump();
    });
  }
  val checkpoint() const {
    return guarded([&] {
      Checkpoint ck;
      if (trainer_) {
        ck = trainer_->checkpoint();
      } else {
        ck.config_json = model().config().to_json();
        ck.vocab = vocab_;
        ck.params = model().module().named_parameters();
      }
      std::vector<uint8_t> bytes = save_checkpoint_bytes(ck);
      return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
    });
  }

  static Checkpoint checkpoint_from(const std::string& bytes) {
    return load_checkpoint_bytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }

 private:
  void init(std::vector<std::string> vocab) {
    ++live_;
    vocab_ = std::move(vocab);
    if (!vocab_.empty()) codec_.emplace(vocab_);
  }
  Trainer& run(const char* purpose) const {
    TF_CHECK(trainer_, purpose,
             " needs a training run (createRun / loadRun), not a model loaded with loadModel");
    return *trainer_;
  }
  const WordCodec& codec(const char* purpose) const {
    TF_CHECK(codec_, purpose, " needs the model's vocabulary, and this checkpoint stores none");
    return *codec_;
  }
  static Ids digits_of(const val& digits) {
    std::vector<int32_t> d = int_vector(digits);
    for (int32_t x : d) TF_CHECK(x >= 0 && x <= 9, "the sorter reads digits 0-9, got ", x);
    TF_CHECK(!d.empty(), "the sorter needs at least one digit");
    return Ids(d, Shape{1, static_cast<int64_t>(d.size())});
  }
  static WriteRequest write_request(const std::string& json) {
    nlohmann::json j = nlohmann::json::parse(json);
    WriteRequest r;
    r.prompt = j.value("prompt", r.prompt);
    r.suffix = j.value("suffix", r.suffix);
    r.sampler = j.value("sampler", r.sampler);
    r.length = j.value("length", r.length);
    r.count = j.value("count", r.count);
    r.steps = j.value("steps", r.steps);
    r.top_k = j.value("topK", r.top_k);
    r.temperature = j.value("temperature", r.temperature);
    r.seed = j.value("seed", r.seed);
    return r;
  }

  static inline int live_ = 0;
  std::unique_ptr<Trainer> trainer_;
  std::unique_ptr<Model> model_;
  std::vector<std::string> vocab_;
  std::optional<WordCodec> codec_;
};

namespace {

// The run's settings as createRun gives them (already merged with the task's defaults by the wrapper);
// a story run's vocabulary size comes from its text.
std::unique_ptr<Handle> create_run(const std::string& config_json, const val& text) {
  return guarded([&] {
    TrainConfig c = TrainConfig::from_json(config_json);
    std::shared_ptr<const StoryData> data;
    if (c.task == "stories") {
      data = story_data(text, nullptr);
      c.model.vocab = data->vocab.size();
      c.validate();
    }
    return std::make_unique<Handle>(std::make_unique<Trainer>(c, make_task(c, data)));
  });
}

std::unique_ptr<Handle> load_run(const std::string& bytes, const val& text) {
  return guarded([&] {
    Checkpoint ck = Handle::checkpoint_from(bytes);
    auto it = ck.metadata.find("tinyformer.train");
    TF_CHECK(it != ck.metadata.end(),
             "this checkpoint holds weights only, not a training run; use loadModel");
    TrainConfig c = TrainConfig::from_json(it->second);
    std::shared_ptr<const StoryData> data = c.task == "stories" ? story_data(text, &ck.vocab) : nullptr;
    return std::make_unique<Handle>(Trainer::resume(ck, make_task(c, data)));
  });
}

std::unique_ptr<Handle> load_model_bytes(const std::string& bytes) {
  return guarded([&] {
    Checkpoint ck = Handle::checkpoint_from(bytes);
    return std::make_unique<Handle>(load_model(ck), ck.vocab);
  });
}

std::string inspect_checkpoint(const std::string& bytes) {
  return guarded([&] {
    Checkpoint ck = Handle::checkpoint_from(bytes);
    int64_t count = 0;
    for (const auto& p : ck.params) count += p.second.numel();
    nlohmann::json j = {{"config", nlohmann::json::parse(ck.config_json)},
                        {"step", ck.step},
                        {"vocab", ck.vocab},
                        {"parameters", count},
                        {"resumable", !ck.optimizer_state.empty()},
                        {"metadata", ck.metadata}};
    if (auto it = ck.metadata.find("tinyformer.train"); it != ck.metadata.end()) {
      j["train"] = nlohmann::json::parse(it->second);
      j["task"] = j["train"]["task"];
    }
    return j.dump();
  });
}

std::string default_config(const std::string& task, const std::string& kind) {
  return guarded([&] {
    ModelKind k = parse_kind(kind.empty() ? (task == "sort" ? "sorter" : "transformer") : kind);
    TrainConfig c = TrainConfig::for_task(task, k);
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
  guarded([&] { ThreadPool::instance().set_threads(n); });
}
int threads() { return ThreadPool::instance().threads(); }

val pool_bytes() {
  val out = val::object();
  out.set("live", static_cast<double>(host_pool().live_bytes()));
  out.set("cached", static_cast<double>(host_pool().cached_bytes()));
  return out;
}

bool threaded() {
#ifdef TF_SINGLE_THREADED
  return false;
#else
  return true;
#endif
}

val positional_encoding_figure(int positions, int dim) {
  return guarded([&] { return figure_value(positional_figure(positions, dim)); });
}
val attention_walkthrough_figure(const std::string& tokens_json, int d_model, int d_k, int heads,
                                 double seed) {
  return guarded([&] {
    auto tokens = nlohmann::json::parse(tokens_json).get<std::vector<std::string>>();
    return figure_value(tf::attention_walkthrough(tokens, d_model, d_k, heads, static_cast<uint64_t>(seed)));
  });
}
val entropy_vs_dk_figure(const std::string& dims_json, int queries, int keys, double seed) {
  return guarded([&] {
    auto dims = nlohmann::json::parse(dims_json).get<std::vector<int64_t>>();
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

std::string version() { return kVersion; }
double flops_done() { return static_cast<double>(flop_count()); }

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
      .function("loadWeights", &Handle::load_weights)
      .function("setCausal", &Handle::set_causal)
      .function("logits", &Handle::logits)
      .function("probabilities", &Handle::probabilities)
      .function("attention", &Handle::attention)
      .function("sorterAttention", &Handle::sorter_attention)
      .function("saliency", &Handle::saliency)
      .function("tokenSaliency", &Handle::token_saliency)
      .function("toyGuesses", &Handle::toy_guesses)
      .function("undiffuseCensus", &Handle::undiffuse_census)
      .function("write", &Handle::write)
      .function("parameters", &Handle::parameters)
      .function("checkpoint", &Handle::checkpoint);
  function("liveHandles", &Handle::live);
  function("createRun", &create_run);
  function("loadRun", &load_run);
  function("loadModel", &load_model_bytes);
  function("inspectCheckpoint", &inspect_checkpoint);
  function("defaultConfig", &default_config);
  function("builtinStories", &builtin_stories);
  function("tokenize", &tokenize_text);
  function("setThreads", &set_threads);
  function("threads", &threads);
  function("poolBytes", &pool_bytes);
  function("threaded", &threaded);
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
