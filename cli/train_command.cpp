// tinyformer train: opens a run as a Session (fresh, from --init-from's weights, or resumed), steps it with
// a progress bar, logs one JSON line per step, validates and checkpoints every N steps, and ends with one
// JSON line of final figures (with --profile, the profile too, and its table on stderr). Ctrl-C or SIGTERM
// stops it between steps, saves to --save and exits with 130. The session refuses a checkpoint right after
// a skipped step: the file then keeps the last state that trained, and the exit status is 1.
// Under mpirun the ranks train one run together (cli/ranks.hpp): rank 0 alone prints, logs and saves.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <numeric>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "data_source.hpp"
#include "interrupt.hpp"
#include "jsonl_log.hpp"
#include "progress_bar.hpp"
#include "ranks.hpp"
#include "runtime.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

namespace {

// The run's settings: the task's course defaults, then every option given.
TrainConfig config_from(const Args& a) {
  TrainConfig c = TrainConfig::for_task(a.str("task"), a.str("model", ""));
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
  c.max_skips = a.integer("max-skips", c.max_skips);
  c.seed = static_cast<uint64_t>(a.integer("seed"));
  return c;
}

// Rank 0's messages: the others of a data-parallel run stay quiet.
bool g_quiet = false;
template <class... Values>
void note(const char* format, Values... values) {
  if (!g_quiet) std::fprintf(stderr, format, values...);
}

// The story text of --data and --valid (read by rank 0, sent to the others), with --top-words for a fresh
// run's vocabulary.
CorpusText corpus_text(const Args& a, std::string& description, Communicator& ranks) {
  StoryText text = shared_story_text(a, ranks);
  description = text.description;
  return {std::move(text.train), std::move(text.valid), a.integer("top-words")};
}

std::unique_ptr<Session> resume_session(const Args& a, Device device, Communicator& ranks) {
  SavedRun run = shared_saved_run(a.str("resume"), ranks);
  std::optional<TaskKind> expected;
  if (a.has("task")) expected = parse_task(a.str("task"));
  std::string description;
  std::optional<CorpusText> text;
  if (run.task == TaskKind::Stories) text = corpus_text(a, description, ranks);
  auto session = Session::resume(run, text ? &*text : nullptr, device, expected);
  note("resuming %s at step %lld\n", a.str("resume").c_str(), static_cast<long long>(run.step()));
  return session;
}

// The run --resume names, or a fresh one from the options (its options checked before any text is read).
std::unique_ptr<Session> open_session(const Args& a, Device device, Communicator& ranks) {
  if (a.has("resume")) return resume_session(a, device, ranks);
  TrainConfig c = checking_options([&] { return config_from(a); });
  checking_options([&] { c.validate(); });  // a story run's vocabulary comes from its text: checked again
  std::string description;
  std::optional<CorpusText> text;
  if (c.task == TaskKind::Stories) text = corpus_text(a, description, ranks);
  auto session = Session::create(c, text ? &*text : nullptr, device);
  if (const StoryData* d = session->story_data())
    note("corpus: %s, %lld training tokens, %lld held out, vocabulary %lld\n", description.c_str(),
         static_cast<long long>(d->train.size()), static_cast<long long>(d->valid.size()),
         static_cast<long long>(d->vocab.size()));
  if (a.has("init-from")) {
    session->init_from(shared_saved_run(a.str("init-from"), ranks));
    note("weights from %s\n", a.str("init-from").c_str());
  }
  return session;
}

// Writes the run to `path` unless the session refuses (right after a skipped step, or with numbers that are
// not finite: the file keeps the last state that trained), which is said on stderr. Every rank asks, so
// all answer alike; rank 0 alone writes.
bool save(const Session& s, const std::string& path) {
  try {
    Checkpoint ck = s.checkpoint();
    if (!g_quiet) save_checkpoint(path, ck);
    return true;
  } catch (const CheckpointRefused& e) {
    note("not saving %s at step %lld: %s\n", path.c_str(), static_cast<long long>(s.steps_done()), e.what());
    return false;
  }
}

// The loop's running figures: the final JSON line reports them.
struct Totals {
  std::deque<float> last;  // the last 200 losses: the final figure
  double seconds = 0;
  int64_t tokens = 0;
  uint64_t flops = 0;
  double mean_loss() const {
    return last.empty() ? 0.0
                        : std::accumulate(last.begin(), last.end(), 0.0) / static_cast<double>(last.size());
  }
};

// Runs f with the profiler (when on) paused, so the profile holds training steps alone.
template <class F>
auto unprofiled(F f) {
  bool on = profiler::running();
  if (on) profiler::stop();
  auto result = f();
  if (on) profiler::start();
  return result;
}

// One step: its log line, validation and checkpoint when due, and the progress display.
StepStats step_once(Session& session, const Args& a, JsonlLog* log, ProgressBar& bar, Totals& t) {
  int64_t eval_every = a.integer("eval-every"), ckpt_every = a.integer("checkpoint-every");
  StepStats s = session.advance(1).front();
  t.seconds += s.seconds;
  t.tokens += s.tokens;
  t.flops += s.flops;
  if (!s.skipped) t.last.push_back(s.loss);
  if (t.last.size() > 200) t.last.pop_front();
  nlohmann::json line = {
      {"step", s.step},       {"loss", s.loss},  // null when not finite
      {"lr", s.lr},           {"grad_norm", s.grad_norm},
      {"skipped", s.skipped}, {"tokens_per_s", s.seconds > 0 ? s.tokens / s.seconds : 0.0}};
  if (eval_every > 0 && s.step % eval_every == 0 && !g_quiet)
    if (std::optional<float> valid = unprofiled([&] { return session.validation_loss(); }))
      line["validation_loss"] = *valid;
  if (log) log->write(line);
  if (ckpt_every > 0 && s.step % ckpt_every == 0) save(session, a.str("save"));
  char status[128];
  int n = std::snprintf(status, sizeof status, "loss %.4f (avg %.4f)", s.loss, t.mean_loss());
  if (s.skipped_steps > 0 && n > 0 && static_cast<size_t>(n) < sizeof status)
    std::snprintf(status + n, sizeof status - static_cast<size_t>(n), ", %lld skipped (not finite)",
                  static_cast<long long>(s.skipped_steps));
  if (!g_quiet) bar.update(s.step, status);
  return s;
}

nlohmann::json final_figures(const Session& session, const Args& a, const Totals& t, bool saved) {
  TrainConfig c = session.train_config();
  nlohmann::json result = {
      {"task", task_name(c.task)},
      {"model", kind_name(c.model.kind)},
      {"causal", c.model.causal},
      {"rotary", c.model.rotary},
      {"steps", session.steps_done()},
      {"skipped_steps", session.skipped_steps()},
      {"parameters", session.model().module().parameter_count()},
      {"seconds", t.seconds},
      {"tokens_per_s", t.seconds > 0 ? t.tokens / t.seconds : 0.0},
      {"gflops_per_s", t.seconds > 0 ? static_cast<double>(t.flops) / t.seconds * 1e-9 : 0.0}};
  if (!t.last.empty()) result["final_loss"] = t.mean_loss();
  if (a.flag("profile")) result["profile"] = profile_json(profiler::read());
  std::optional<float> v = session.validation_loss();
  if (v || c.task == TaskKind::Stories)
    result["validation_loss"] = v ? nlohmann::json(*v) : nullptr;  // null: too little held-out text
  if (!a.flag("no-eval")) result["evaluation"] = session.evaluate(123);
  if (saved) result["checkpoint"] = a.str("save");
  return result;
}

void train_options(OptionTable& o) {
  // The ranges of TrainConfig's settings are the core's (validate() checks them again, open ends included).
  auto low = [](const char* setting) { return static_cast<int64_t>(TrainConfig::bounds(setting).min); };
  auto high = [](const char* setting) { return static_cast<int64_t>(TrainConfig::bounds(setting).max); };
  const Bounds &lr = TrainConfig::bounds("lr"), &pct = TrainConfig::bounds("pct_start"),
               &decay = TrainConfig::bounds("weight_decay");
  const int64_t max_steps = high("steps");
  o.choice("task", {"toy", "sort", "stories"}, "what to learn; sets the course's defaults below", "stories");
  o.choice("model", {"notalking", "withposition", "transformer", "sorter"},
           "the network (default: sorter for --task sort, else transformer)");
  o.flag("causal", "attend only to earlier positions (a GPT that writes left to right)");
  o.flag("rotary", "rotary position embeddings instead of learned ones");
  data_options(o);
  o.integer("top-words", "N", "stories: the vocabulary keeps the N most frequent words", 1, 1000000,
            Vocabulary::kDefaultTop);
  o.integer("steps", "N", "optimizer steps in all (task default; with --resume, the new total)", low("steps"),
            max_steps);
  o.integer("batch", "N", "sequences per step (task default)", low("batch"), high("batch"));
  o.integer("seq-len", "N", "stories: tokens per training window (task default)", 2, 65536);
  o.integer("dim", "N", "model width C (task default)", 1, 8192);
  o.integer("heads", "N", "attention heads (task default)", 1, 8192);
  o.integer("layers", "N", "transformer blocks L (task default)", 0, 256);
  o.integer("max-length", "N", "longest sequence the model takes (task default)", 1, 65536);
  o.number("lr", "peak learning rate (task default)", lr.min, lr.max);
  o.choice("optimizer", {"adam", "adamw", "sgd"}, "the optimizer (task default)");
  o.choice("schedule", {"constant", "onecycle", "cosine"}, "the learning-rate schedule (task default)");
  o.number("pct-start", "onecycle: the warm-up fraction of the steps (task default)", pct.min, pct.max);
  o.integer("warmup", "N", "cosine: warm-up steps (task default)", 0, max_steps);
  o.number("weight-decay", "weight decay (task default)", decay.min, decay.max);
  o.number("clip", "largest gradient norm, 0 = no clipping (task default)", 0, 1e6);
  o.integer("seed", "N", "seed of initialisation and batches", 0, INT64_MAX, 0);
  o.integer(
      "max-skips", "N",
      "stop after N steps in a row with a non-finite loss or gradient norm (each is skipped: no update; "
      "default 20)",
      low("max_skips"), high("max_skips"));
  compute_options(o);
  rank_options(o);
  o.output_file("save", "checkpoint written at the end (and on Ctrl-C): a regular file or a new name");
  o.integer("checkpoint-every", "N", "also save every N steps (needs --save; 0 = never)", 0, max_steps, 0);
  o.text("resume", "FILE", "continue the run saved in FILE (its settings; --steps sets the new total)");
  o.text("init-from", "FILE", "start from the weights in FILE");
  o.text("log", "FILE.jsonl", "append one JSON line per step");
  o.integer("eval-every", "N", "validation loss every N steps (0 = never)", 0, max_steps, 0);
  o.flag("no-eval", "skip the course's evaluation at the end");
  o.flag("profile",
         "time each kernel stem (forward, backward) and step phase; print the table at the end (stderr) and "
         "add it to the JSON line");
}

// The command on one rank (of one, unless mpirun started several).
int train(const Args& a, Device device, const std::shared_ptr<Communicator>& ranks) {
  g_quiet = ranks->rank() != 0;
  if (a.has("save") && !g_quiet) check_writable(a.str("save"));  // before training, not after it
  std::unique_ptr<Session> session = open_session(a, device, *ranks);
  session->distribute(ranks);
  TrainConfig c = session->train_config();
  int64_t total = a.has("resume") ? a.integer("steps", c.steps) : c.steps, first = session->steps_done();
  TF_CHECK(total > first || !a.has("resume"), "the run in ", a.str("resume"), " is at step ", first,
           " already: --steps ", total, " (the new total) leaves nothing to train; give more than ", first);
  std::unique_ptr<JsonlLog> log =
      a.has("log") && !g_quiet ? std::make_unique<JsonlLog>(a.str("log")) : nullptr;
  note("training %s (%lld parameters) on %s, %s%s\n", kind_name(c.model.kind).c_str(),
       static_cast<long long>(session->model().module().parameter_count()), device_name(device).c_str(),
       task_name(c.task).c_str(),
       ranks->size() > 1 ? (", " + std::to_string(ranks->size()) + " ranks").c_str() : "");

  if (a.flag("profile")) profiler::start();
  ProgressBar bar("train", total);
  Totals totals;
  bool saved = false;
  {
    InterruptGuard interrupt(g_quiet);  // Ctrl-C: finish the step, save, exit 130
    ranks->watch_for_stop(&InterruptGuard::requested);
    bool stop = false;  // on every rank alike: a signal that reached one rank first stops them all
    while (session->steps_done() < total && !(stop = ranks->any(interrupt.interrupted())))
      step_once(*session, a, log.get(), bar, totals);
    if (stop) {
      saved = a.has("save") && save(*session, a.str("save"));
      note("\n%s at step %lld: %s\n", interrupt.signal_name(), static_cast<long long>(session->steps_done()),
           saved           ? ("saved " + a.str("save")).c_str()
           : a.has("save") ? "nothing saved"
                           : "nothing saved (no --save)");
      return kInterruptedExit;
    }
    if (!g_quiet) bar.finish();
    saved = a.has("save") && save(*session, a.str("save"));
  }
  if (a.flag("profile")) {
    profiler::stop();
    note("where the time goes, per step:\n%s", profile_table(profiler::read()).c_str());
  }
  if (!g_quiet) print_json_line(final_figures(*session, a, totals, saved));
  int64_t ran = session->steps_done() - first;
  if (ran > 0 && session->skipped_steps() == ran) {
    note(
        "every one of the %lld steps was skipped (loss or gradient norm not finite): the run diverged and "
        "nothing was trained\n",
        static_cast<long long>(ran));
    return 1;
  }
  return a.has("save") && !saved ? 1 : 0;  // 1: the run diverged and the file keeps its last good state
}

int train_command(const Args& a) {
  if (a.integer("checkpoint-every") > 0 && !a.has("save"))
    throw UsageError("--checkpoint-every needs --save FILE");
  apply_threads(a);
  Device device = device_option(a);
  std::shared_ptr<Communicator> ranks = join_ranks(a, device);
  return on_every_rank(*ranks, [&] { return train(a, device, ranks); });
}

}  // namespace

const Command train_subcommand{"train", "train a model (toy, sort or stories) and save it", train_options,
                               train_command};

}  // namespace tf::cli
