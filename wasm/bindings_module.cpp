// The Embind bindings of the module's free functions: course defaults, the built-in stories, the
// tokenizer, the runtime (threads, memory, flops, profile, version, devices, the pending error) and the
// section A figures. Marshalling only.
#include <emscripten/bind.h>

#include "marshal.hpp"
#include "runtime.hpp"

namespace tf {

using namespace marshal;

namespace {

std::string default_config(const std::string& task, const std::string& kind) {
  return guarded([&] { return TrainConfig::for_task(task, kind).to_json(); });
}
// TrainConfig::bounds() as {name: {min, max, min_open, max_open, whole}}.
std::string train_bounds() {
  nlohmann::json j = nlohmann::json::object();
  for (const Bounds& b : TrainConfig::bounds())
    j[b.name] = {{"min", b.min},
                 {"max", b.max},
                 {"min_open", b.min_open},
                 {"max_open", b.max_open},
                 {"whole", b.whole}};
  return j.dump();
}
// Throws (with the core's reason) unless `name` ("cpu", "webgpu") is a device this module can compute on;
// on "webgpu" this starts the backend (the arena is made on the GPUDevice handed in as Module.webgpu).
void check_device(const std::string& name) {
  guarded([&] {
    runtime::usable_device(name);
    return 0;
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
std::string profile_json_text() { return profile_json(profiler::read()).dump(); }
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
// B5: a model config's parameters by piece, before anything is built or any task chosen.
std::string parameter_report(const std::string& model_json) {
  return guarded([&] {
    return parameter_table_json(parameter_table(ModelConfig::from_json(model_json).parameter_shapes()))
        .dump();
  });
}
double parameter_estimate(double layers, double dim) {
  return block_parameter_estimate(static_cast<int64_t>(layers), static_cast<int64_t>(dim));
}

}  // namespace

EMSCRIPTEN_BINDINGS(tinyformer_module) {
  using namespace emscripten;
  function("defaultConfig", &default_config);
  function("trainBounds", &train_bounds);
  function("builtinStories", &builtin_stories);
  function("tokenize", &tokenize_text);
  function("setThreads", &set_threads);
  function("threads", &runtime::threads);
  function("poolBytes", &pool_bytes);
  function("threaded", &runtime::threaded);
  function("version", &version);
  function("takeError", &take_error);  // every binding's pending error (marshal.hpp)
  function("checkDevice", &check_device);
  function("flopCount", &flops_done);
  function("profileStart", &profiler::start);
  function("profileStop", &profiler::stop);
  function("profileReset", &profiler::reset);
  function("profiling", &profiler::running);
  function("profileJson", &profile_json_text);
  function("positionalEncoding", &positional_encoding_figure);
  function("attentionWalkthrough", &attention_walkthrough_figure);
  function("entropyVsDk", &entropy_vs_dk_figure);
  function("feedForwardCheck", &feed_forward_check_figure);
  function("layerNormCheck", &layer_norm_check_figure);
  function("residualStream", &residual_stream_figure);
  function("blockParameterEstimate", &parameter_estimate);
  function("parameterReport", &parameter_report);
}

}  // namespace tf
