#include "train/trainer.hpp"

#include <chrono>
#include <cmath>
#include <limits>

#include "ops/ops.hpp"
#include "optim/adam.hpp"
#include "optim/clip_grad.hpp"
#include "optim/sgd.hpp"
#include "profile/profile.hpp"
#include "train/vocabulary_agreement.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

// The optimizer names its state "optim.<slot>.<param>"; a checkpoint stores it under its own "optim."
// prefix, so the trainer hands the names over without the optimizer's (one "optim." in the file).
constexpr const char* kOptimizerOwnPrefix = "optim.";

NamedTensors without_own_prefix(NamedTensors state) {
  const size_t n = std::string(kOptimizerOwnPrefix).size();
  for (auto& [name, t] : state)
    if (name.rfind(kOptimizerOwnPrefix, 0) == 0) name = name.substr(n);
  return state;
}

NamedTensors with_own_prefix(NamedTensors state) {
  for (auto& [name, t] : state) name = kOptimizerOwnPrefix + name;
  return state;
}

}  // namespace

std::unique_ptr<Optimizer> make_optimizer(const TrainConfig& c, const Module& model) {
  NamedTensors params = model.named_parameters();
  if (c.optimizer == "adamw")
    return std::make_unique<AdamW>(params, c.lr, 0.9f, 0.999f, 1e-8f, c.weight_decay);
  if (c.optimizer == "sgd") return std::make_unique<Sgd>(params, c.lr, c.momentum, c.weight_decay);
  return std::make_unique<Adam>(params, c.lr, 0.9f, 0.999f, 1e-8f, c.weight_decay);
}

std::unique_ptr<Schedule> make_schedule(const TrainConfig& c) {
  int64_t total = std::max<int64_t>(c.steps, 1);
  if (c.schedule == "onecycle") {
    OneCycleOptions o;
    o.pct_start = c.pct_start;
    return std::make_unique<OneCycle>(c.lr, total, o);
  }
  if (c.schedule == "cosine") return std::make_unique<WarmupCosine>(c.lr, c.warmup, total, 0.0);
  return std::make_unique<ConstantSchedule>(c.lr);
}

Trainer::Trainer(const TrainConfig& config, std::unique_ptr<Task> task, Device device)
    : config_(config), task_(std::move(task)), rng_(config.seed) {
  config_.validate();
  model_ = std::make_unique<Model>(config_.model, rng_, device);
  optimizer_ = make_optimizer(config_, model_->module());
  schedule_ = make_schedule(config_);
}

float Trainer::backward_and_clip(const LossResult& r) {
  if (!all_finite(r.loss)) return std::numeric_limits<float>::quiet_NaN();
  r.loss.backward();  // the engine marks its own phase
  PhaseScope optimizer(Phase::Optimizer);
  if (config_.clip > 0) return clip_grad_norm(optimizer_->params(), config_.clip);
  return grad_norm(optimizer_->params());
}

void Trainer::count_skip() {
  ++skipped_;
  ++skipped_in_a_row_;
  TF_CHECK(skipped_in_a_row_ < config_.max_skips, "training stopped at step ", step_, ": ", skipped_in_a_row_,
           " steps in a row had a non-finite loss or gradient norm (the run diverged; ",
           "a smaller learning rate or gradient clipping may help). The parameters are those of the last "
           "good step.");
}

// A step's parts are marked as the profiler's phases (the task marks drawing its batch, the autograd engine
// the backward pass).
StepStats Trainer::step() {
  StepScope profiled;
  auto start = std::chrono::steady_clock::now();
  uint64_t flops0 = flop_count();
  {
    PhaseScope optimizer(Phase::Optimizer);
    // One-cycle is defined over `steps`; past its end (a resumed run trained longer) the last value holds.
    apply_schedule(*schedule_, std::min(step_, std::max<int64_t>(config_.steps, 1) - 1), *optimizer_);
    optimizer_->zero_grad();
  }
  LossResult r;
  {
    PhaseScope forward(Phase::Forward);
    r = task_->batch_loss(*model_, rng_);
  }
  StepStats s;
  s.grad_norm = backward_and_clip(r);
  s.skipped = !std::isfinite(s.grad_norm);
  ++step_;
  if (s.skipped) {
    optimizer_->zero_grad();  // no NaN gradients left behind for whoever looks next
    count_skip();
  } else {
    PhaseScope optimizer(Phase::Optimizer);
    optimizer_->step();
    skipped_in_a_row_ = 0;
  }
  s.step = step_;
  s.skipped_steps = skipped_;
  s.loss = r.loss.item() * r.report_scale;
  s.lr = optimizer_->lr();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.tokens = r.tokens;
  s.flops = flop_count() - flops0;
  return s;
}

nlohmann::json Trainer::evaluate(uint64_t seed) const {
  Rng rng(seed);
  return task_->evaluate(*model_, rng);
}

Checkpoint Trainer::checkpoint() const {
  Checkpoint ck;
  ck.config_json = model_->config().to_json();
  ck.vocab = task_->vocabulary();
  ck.step = step_;
  ck.rng_state = rng_.state();
  TrainConfig c = config_;
  c.model = model_->config();
  ck.train_config_json = c.to_json();
  ck.task = task_->name();
  ck.params = model_->module().named_parameters();
  ck.optimizer_state = without_own_prefix(optimizer_->state());
  return ck;
}

std::unique_ptr<Trainer> Trainer::resume(const Checkpoint& ck, std::unique_ptr<Task> task, Device device) {
  TF_CHECK(!ck.train_config_json.empty(),
           "this checkpoint has no training state (it holds weights only); start a new "
           "run from it instead of resuming");
  return resume(TrainConfig::from_json(ck.train_config_json), ck, std::move(task), device);
}

std::unique_ptr<Trainer> Trainer::resume(const TrainConfig& config, const Checkpoint& ck,
                                         std::unique_ptr<Task> task, Device device) {
  TF_CHECK(task->name() == task_name(config.task), "this checkpoint is a ", task_name(config.task),
           " run; it cannot be resumed as a ", task->name(), " run");
  auto trainer = std::make_unique<Trainer>(config, std::move(task), device);
  load_parameters(trainer->model_->module(), ck);
  TF_CHECK(!ck.optimizer_state.empty(), "this checkpoint has no optimizer state to resume from");
  trainer->optimizer_->load_state(with_own_prefix(ck.optimizer_state));
  trainer->step_ = ck.step;
  if (!ck.rng_state.empty()) trainer->rng_.set_state(ck.rng_state);
  return trainer;
}

void Trainer::load_weights(const Checkpoint& ck) {
  require_same_vocabulary(ck.vocab, task_->vocabulary());
  load_parameters(model_->module(), ck);
}

}  // namespace tf
