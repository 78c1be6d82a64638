// tinyformer train: builds (or resumes) a run, steps it with a progress bar, logs one JSON line per step,
// validates and checkpoints every N steps, and ends with one JSON line of final figures.
#include <cstdio>
#include <deque>
#include <fstream>
#include <numeric>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "data_source.hpp"
#include "io/checkpoint.hpp"
#include "progress_bar.hpp"
#include "train/trainer.hpp"
#include "util/error.hpp"

namespace tf::cli {

namespace {

const std::set<std::string> kOptions = {
    "task",         "model",     "data",   "valid",      "steps",     "batch",     "seq-len",
    "dim",          "heads",     "layers", "max-length", "lr",        "optimizer", "schedule",
    "weight-decay", "clip",      "seed",   "threads",    "device",    "save",      "checkpoint-every",
    "resume",       "init-from", "log",    "eval-every", "top-words", "pct-start", "warmup",
    "cache-dir",    "url"};
const std::set<std::string> kFlags = {"causal", "rotary", "no-eval"};

// The run's settings: the task's course defaults, then every option given.
TrainConfig config_from(const Args& a) {
  std::string task = a.str("task", "stories");
  std::string default_model = task == "sort" ? "sorter" : "transformer";
  TrainConfig c = TrainConfig::for_task(task, parse_kind(a.str("model", default_model)));
  c.model.kind = parse_kind(a.str("model", default_model));
  c.model.dim = a.integer("dim", c.model.dim);
  c.model.heads = a.integer("heads", c.model.heads);
  c.model.layers = a.integer("layers", c.model.layers);
  c.model.max_length = a.integer("max-length", c.model.max_length);
  c.model.causal = a.flag("causal");
  c.model.rotary = a.flag("rotary");
  c.steps = a.integer("steps", c.steps);
  c.batch = a.integer("batch", c.batch);
  c.seq_len = a.integer("seq-len", c.seq_len);
  c.lr = static_cast<float>(a.number("lr", c.lr));
  c.optimizer = a.str("optimizer", c.optimizer);
  c.schedule = a.str("schedule", c.schedule);
  c.weight_decay = static_cast<float>(a.number("weight-decay", c.weight_decay));
  c.clip = static_cast<float>(a.number("clip", c.clip));
  c.pct_start = a.number("pct-start", c.pct_start);
  c.warmup = a.integer("warmup", c.warmup);
  int64_t seed = a.integer("seed", 0);
  TF_CHECK(seed >= 0, "--seed must be >= 0");
  c.seed = static_cast<uint64_t>(seed);
  return c;
}

std::shared_ptr<const StoryData> story_data(const Args& a, TrainConfig& c) {
  StoryText text = load_story_text(a);
  int64_t top = a.integer("top-words", Vocabulary::kDefaultTop);
  auto data = std::make_shared<const StoryData>(StoryData::from_text(text.train, text.valid, top));
  c.model.vocab = data->vocab.size();
  std::fprintf(stderr, "corpus: %s, %lld training tokens, %lld held out, vocabulary %lld\n",
               text.description.c_str(), static_cast<long long>(data->train.size()),
               static_cast<long long>(data->valid.size()), static_cast<long long>(data->vocab.size()));
  return data;
}

std::unique_ptr<Trainer> make_trainer(const Args& a, Device device) {
  if (a.has("resume")) {
    Checkpoint ck = load_checkpoint(a.str("resume"));
    auto trainer = Trainer::resume(
        ck, make_task(TrainConfig::from_json(ck.metadata.at("tinyformer.train")), story_data_for(ck, a)),
        device);
    std::fprintf(stderr, "resuming %s at step %lld\n", a.str("resume").c_str(),
                 static_cast<long long>(ck.step));
    return trainer;
  }
  TrainConfig c = config_from(a);
  std::shared_ptr<const StoryData> data = c.task == "stories" ? story_data(a, c) : nullptr;
  c.validate();
  auto trainer = std::make_unique<Trainer>(c, make_task(c, data), device);
  if (a.has("init-from")) {
    trainer->load_weights(load_checkpoint(a.str("init-from")));
    std::fprintf(stderr, "weights from %s\n", a.str("init-from").c_str());
  }
  return trainer;
}

void save(const Trainer& t, const std::string& path) { save_checkpoint(path, t.checkpoint()); }

}  // namespace

int train_command(const std::vector<std::string>& argv) {
  Args a(argv, kOptions, kFlags);
  apply_threads(a);
  Device device = device_option(a);
  std::unique_ptr<Trainer> trainer = make_trainer(a, device);
  const TrainConfig& c = trainer->config();
  int64_t total = a.has("resume") && a.has("steps") ? a.integer("steps", c.steps) : c.steps;
  int64_t eval_every = a.integer("eval-every", 0), ckpt_every = a.integer("checkpoint-every", 0);
  TF_CHECK(eval_every >= 0 && ckpt_every >= 0, "--eval-every and --checkpoint-every must be >= 0");
  TF_CHECK(ckpt_every == 0 || a.has("save"), "--checkpoint-every needs --save FILE");
  std::ofstream log;
  if (a.has("log")) {
    log.open(a.str("log"), std::ios::app);
    TF_CHECK(log.good(), "cannot write the log file ", a.str("log"));
  }
  std::fprintf(stderr, "training %s (%lld parameters) on %s, %s\n", kind_name(c.model.kind).c_str(),
               static_cast<long long>(trainer->model().module().parameter_count()),
               device_name(device).c_str(), c.task.c_str());

  ProgressBar bar("train", total);
  std::deque<float> last;  // the last 200 losses: the final figure
  double seconds = 0;
  int64_t tokens = 0;
  uint64_t flops = 0;
  std::optional<float> valid;
  while (trainer->steps_done() < total) {
    StepStats s = trainer->step();
    seconds += s.seconds;
    tokens += s.tokens;
    flops += s.flops;
    last.push_back(s.loss);
    if (last.size() > 200) last.pop_front();
    nlohmann::json line = {{"step", s.step},
                           {"loss", s.loss},
                           {"lr", s.lr},
                           {"tokens_per_s", s.seconds > 0 ? s.tokens / s.seconds : 0.0}};
    if (eval_every > 0 && s.step % eval_every == 0) {
      valid = trainer->validation_loss();
      if (valid) line["validation_loss"] = *valid;
    }
    if (log.is_open()) log << line.dump() << '\n';
    if (ckpt_every > 0 && s.step % ckpt_every == 0) save(*trainer, a.str("save"));
    char status[96];
    std::snprintf(status, sizeof status, "loss %.4f (avg %.4f)", s.loss,
                  std::accumulate(last.begin(), last.end(), 0.0) / static_cast<double>(last.size()));
    bar.update(s.step, status);
  }
  bar.finish();
  if (a.has("save")) save(*trainer, a.str("save"));

  nlohmann::json result = {{"task", c.task},
                           {"model", kind_name(c.model.kind)},
                           {"causal", c.model.causal},
                           {"rotary", c.model.rotary},
                           {"steps", trainer->steps_done()},
                           {"parameters", trainer->model().module().parameter_count()},
                           {"seconds", seconds},
                           {"tokens_per_s", seconds > 0 ? tokens / seconds : 0.0},
                           {"gflops_per_s", seconds > 0 ? static_cast<double>(flops) / seconds * 1e-9 : 0.0}};
  if (!last.empty())
    result["final_loss"] = std::accumulate(last.begin(), last.end(), 0.0) / static_cast<double>(last.size());
  if (std::optional<float> v = trainer->validation_loss()) result["validation_loss"] = *v;
  if (!a.flag("no-eval")) result["evaluation"] = trainer->evaluate(123);
  if (a.has("save")) result["checkpoint"] = a.str("save");
  print_json_line(result);
  return 0;
}

}  // namespace tf::cli
