// The Embind bindings of a session (core/run/session.hpp): one Handle class per Session, which JS must
// delete() (wasm/model.js and run.js wrap each in a Model or Run that does), and the functions that make one
// from a config or checkpoint bytes. Marshalling only; structured results cross as JSON text.
#include <emscripten/bind.h>

#include "marshal.hpp"

namespace tf {

using namespace marshal;

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
  double steps_done() const { return static_cast<double>(s_->steps_done()); }
  std::string train_config_json() const {
    return guarded([&] { return s_->train_config().to_json(); });
  }

  val encode(const std::string& text) const {
    return guarded([&] { return typed_array("Int32Array", s_->codec("reading words").encode(text)); });
  }
  std::string decode(const val& ids) const {
    return guarded([&] { return nlohmann::json(s_->codec("showing words").decode(int_vector(ids))).dump(); });
  }
  val train(int n) {
    return guarded([&] { return step_totals_value(step_totals(s_->advance(n))); });
  }
  // Chunks: start_chunk queues n steps and says where their step log lies; finish_chunk takes the log's
  // numbers as the wrapper read them and returns {steps: each step's stats, totals: their totals}.
  val start_chunk(int n) {
    return guarded([&] { return block_value(s_->start_chunk(n)); });
  }
  val finish_chunk(const val& log) {
    return guarded([&] {
      std::vector<StepStats> stats = s_->finish_chunk(emscripten::convertJSArrayToNumberVector<float>(log));
      val out = val::object();
      out.set("steps", step_stats_array(stats));
      out.set("totals", step_totals_value(step_totals(stats)));
      return out;
    });
  }
  std::string device() const { return device_name(s_->device()); }
  // [{name, shape, pointer, bytes}]: where each parameter lies on the device, for a snapshot.
  std::string parameter_blocks() const {
    return guarded([&] { return blocks_json(s_->parameter_blocks()); });
  }
  // The same for the device tensors of a checkpoint, and the checkpoint's bytes with their numbers as read.
  std::string checkpoint_blocks() const {
    return guarded([&] { return blocks_json(s_->checkpoint_blocks()); });
  }
  val checkpoint_read(const val& arrays) const {
    return guarded([&] {
      std::vector<std::vector<float>> read;
      for (const val& a : emscripten::vecFromJSArray<val>(arrays))
        read.push_back(emscripten::convertJSArrayToNumberVector<float>(a));
      return typed_array("Uint8Array", save_checkpoint_bytes(s_->checkpoint(read)));
    });
  }
  void load_weights(const val& weights, const std::string& vocabulary_json) {
    guarded([&] {
      s_->load_weights(named_tensors_of(weights),
                       nlohmann::json::parse(vocabulary_json).get<std::vector<std::string>>());
    });
  }
  val validation_loss() const {
    return guarded([&] {
      std::optional<float> v = s_->validation_loss();
      return v ? val(*v) : val::null();
    });
  }
  std::string evaluate(double seed) const {
    return guarded([&] { return s_->evaluate(static_cast<uint64_t>(seed)).dump(); });
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
      return figure_value(sorter_saliency_figure(s_->model().sorter_model("saliency"), digits_of(digits)));
    });
  }
  // ids [T] -> figure: "saliency" [T, T] (rows: positions, the word written there), values "written".
  val token_saliency(const val& ids) const {
    return guarded([&] {
      return figure_value(
          token_saliency_figure(s_->model().transformer_model("saliency"), row_of(int_vector(ids))));
    });
  }
  // Story and toy models: words [T], masked positions [n], top -> the logit lens (interp/logit_lens.hpp).
  val logit_lens(const val& ids, const val& masked, int top) const {
    return guarded([&] {
      std::vector<int32_t> m32 = int_vector(masked);
      return figure_value(tf::logit_lens(s_->model().transformer_model("the logit lens"), int_vector(ids),
                                         std::vector<int64_t>(m32.begin(), m32.end()),
                                         s_->codec("the logit lens").mask_id(), top));
    });
  }
  // Clean and corrupted ids [T] -> activation patching's grids (interp/patching.hpp); -1: its defaults.
  val patching(const val& clean, const val& corrupted, int position, int target) const {
    return guarded([&] {
      return figure_value(token_patching(s_->model().transformer_model("patching"), row_of(int_vector(clean)),
                                         row_of(int_vector(corrupted)), position, target));
    });
  }
  val sorter_patching(const val& clean, const val& corrupted) const {
    return guarded([&] {
      return figure_value(tf::sorter_patching(s_->model().sorter_model("sorter patching"), digits_of(clean),
                                              digits_of(corrupted)));
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
// `device` names where the model and optimizer state live ("cpu", or "webgpu" in the WebGPU build).
std::unique_ptr<Handle> create_run(const std::string& config_json, const val& text,
                                   const std::string& device) {
  return guarded([&] {
    std::optional<CorpusText> corpus = corpus_of(text);
    return std::make_unique<Handle>(Session::create(TrainConfig::from_json(config_json),
                                                    corpus ? &*corpus : nullptr, parse_device(device)));
  });
}
// Checkpoint bytes come as (pointer, size) in wasm memory that the wrapper owns (calls.js withBytes).
std::unique_ptr<Handle> load_run(double pointer, double size, const val& text, const std::string& device) {
  return guarded([&] {
    std::optional<CorpusText> corpus = corpus_of(text);
    return std::make_unique<Handle>(
        Session::resume(saved_run_of(pointer, size), corpus ? &*corpus : nullptr, parse_device(device)));
  });
}
std::unique_ptr<Handle> load_model(double pointer, double size) {
  return guarded([&] { return std::make_unique<Handle>(Session::view(saved_run_of(pointer, size))); });
}
std::string inspect_checkpoint(double pointer, double size) {
  return guarded([&] { return describe_saved_run(saved_run_of(pointer, size)).dump(); });
}
// A checkpoint's timeline: [{step, weights: [{name, shape, data}]}], by step.
val timeline_of(double pointer, double size) {
  return guarded([&] {
    val out = val::array();
    for (const auto& [step, params] : saved_run_of(pointer, size).file.timeline) {
      val weights = val::array(), snapshot = val::object();
      for (const auto& [name, t] : params) {
        val w = tensor_data(t);
        w.set("name", name);
        weights.call<void>("push", w);
      }
      snapshot.set("step", static_cast<double>(step));
      snapshot.set("weights", weights);
      out.call<void>("push", snapshot);
    }
    return out;
  });
}
// The checkpoint's bytes written again with `timeline` ([{step, weights}]) as its timeline.
val with_timeline(double pointer, double size, const val& timeline) {
  return guarded([&] {
    Checkpoint ck = saved_run_of(pointer, size).file;
    ck.timeline.clear();
    for (const val& s : emscripten::vecFromJSArray<val>(timeline)) {
      const double step = s["step"].isNumber() ? s["step"].as<double>() : -1;
      TF_CHECK(step >= 0 && step <= 9e15 && step == static_cast<double>(static_cast<int64_t>(step)),
               "a timeline's step must be a whole number of steps");
      TF_CHECK(ck.timeline.emplace(static_cast<int64_t>(step), named_tensors_of(s["weights"])).second,
               "the timeline has step ", step, " twice");
    }
    return typed_array("Uint8Array", save_checkpoint_bytes(ck));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tinyformer_session) {
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
      .function("train", &Handle::train)
      .function("startChunk", &Handle::start_chunk)
      .function("finishChunk", &Handle::finish_chunk)
      .function("device", &Handle::device)
      .function("parameterBlocks", &Handle::parameter_blocks)
      .function("loadWeights", &Handle::load_weights)
      .function("validationLoss", &Handle::validation_loss)
      .function("evaluate", &Handle::evaluate)
      .function("copyWeightsFrom", &Handle::copy_weights_from)
      .function("setCausal", &Handle::set_causal)
      .function("parameter", &Handle::parameter)
      .function("parameters", &Handle::parameters)
      .function("checkpoint", &Handle::checkpoint)
      .function("checkpointBlocks", &Handle::checkpoint_blocks)
      .function("checkpointRead", &Handle::checkpoint_read)
      .function("logits", &Handle::logits)
      .function("probabilities", &Handle::probabilities)
      .function("attention", &Handle::attention)
      .function("sorterAttention", &Handle::sorter_attention)
      .function("saliency", &Handle::saliency)
      .function("tokenSaliency", &Handle::token_saliency)
      .function("logitLens", &Handle::logit_lens)
      .function("patching", &Handle::patching)
      .function("sorterPatching", &Handle::sorter_patching)
      .function("toyGuesses", &Handle::toy_guesses)
      .function("undiffuseCensus", &Handle::undiffuse_census)
      .function("write", &Handle::write);
  function("liveHandles", &Handle::live);
  function("createRun", &create_run);
  function("loadRun", &load_run);
  function("loadModel", &load_model);
  function("inspectCheckpoint", &inspect_checkpoint);
  function("timelineOf", &timeline_of);
  function("withTimeline", &with_timeline);
}

}  // namespace tf
