#include "train/trainer.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "backend/kernels.hpp"
#include "ops/ops.hpp"
#include "optim/adam.hpp"
#include "optim/clip_grad.hpp"
#include "optim/sgd.hpp"
#include "profile/profile.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

// The optimizer names its state "optim.<slot>.<param>"; a checkpoint stores it under its own "optim."
// prefix, so the trainer hands the names over without the optimizer's (one "optim." in the file).
constexpr const char* kOptimizerOwnPrefix = "optim.";

template <class Named>
void strip_own_prefix(Named& entries) {
  const size_t n = std::string(kOptimizerOwnPrefix).size();
  for (auto& [name, value] : entries)
    if (name.rfind(kOptimizerOwnPrefix, 0) == 0) name = name.substr(n);
}

template <class Named>
void add_own_prefix(Named& entries) {
  for (auto& [name, value] : entries) name = kOptimizerOwnPrefix + name;
}

OptimizerState without_own_prefix(OptimizerState state) {
  strip_own_prefix(state.counts);
  strip_own_prefix(state.slots);
  return state;
}

OptimizerState with_own_prefix(OptimizerState state) {
  add_own_prefix(state.counts);
  add_own_prefix(state.slots);
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

void Trainer::distribute(std::shared_ptr<Communicator> ranks) {
  task_->set_shard({ranks->rank(), ranks->size()});
  exchange_ = ranks->size() > 1 ? std::make_unique<GradientExchange>(std::move(ranks)) : nullptr;
}

// A step's parts are marked as the profiler's phases (the task marks drawing its batch, the autograd engine
// the backward pass).
Trainer::QueuedStep Trainer::queue_step(float* log_row) {
  StepScope profiled;
  auto start = std::chrono::steady_clock::now();
  uint64_t flops0 = flop_count();
  QueuedStep q;
  {
    PhaseScope optimizer(Phase::Optimizer);
    // One-cycle is defined over `steps`; past its end (a resumed run trained longer) the last value holds.
    apply_schedule(*schedule_, std::min(step_, std::max<int64_t>(config_.steps, 1) - 1), *optimizer_);
    optimizer_->zero_grad();
  }
  {
    LossResult r;
    {
      PhaseScope forward(Phase::Forward);
      r = task_->batch_loss(*model_, rng_);
    }
    r.loss.backward();  // also when the loss is not finite: only the device knows, and the guard says so
    PhaseScope optimizer(Phase::Optimizer);
    float max_norm = config_.clip > 0 ? config_.clip : std::numeric_limits<float>::infinity();
    if (exchange_) {
      q.stepped = exchange_->step(*optimizer_, r.loss, r.report_scale, max_norm, log_row);
    } else {
      guard_step(optimizer_->gradients(), r.loss, r.report_scale, max_norm, log_row);
      q.stepped = optimizer_->apply_gradients(log_row);
    }
    q.tokens = r.tokens;
  }  // the step's graph is freed here, inside the time it reports (the profiler's step time counts it too)
  ++step_;
  q.lr = optimizer_->lr();
  q.flops = flop_count() - flops0;
  q.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return q;
}

StepStats Trainer::settle(const QueuedStep& q, const float* row, int64_t step) {
  StepStats s;
  s.step = step;
  s.loss = row[kStepLoss];
  s.grad_norm = row[kStepNorm];
  s.skipped = row[kStepKeep] == 0.f;
  if (s.skipped) {
    optimizer_->uncount_step(q.stepped);
    ++skipped_;
    ++skipped_in_a_row_;
  } else {
    skipped_in_a_row_ = 0;
  }
  s.skipped_steps = skipped_;
  s.lr = q.lr;
  s.seconds = q.seconds;
  s.tokens = q.tokens;
  s.flops = q.flops;
  return s;
}

void Trainer::stop_run(int64_t step, int64_t skips_in_a_row) const {
  fail("training stopped at step ", step, ": ", skips_in_a_row,
       " steps in a row had a non-finite loss or gradient norm (the run diverged; ",
       "a smaller learning rate or gradient clipping may help). The parameters are those of the last "
       "good step.");
}

void Trainer::start_chunk(int64_t n) {
  TF_CHECK(!chunk_pending(), "a chunk of steps is still pending: finish it (read its step log) first");
  TF_CHECK(n >= 1, "a chunk needs at least one step, got ", n);
  Device device = optimizer_->params().front().second.device();
  log_ = Tensor::empty(Shape{n, kStepLogWidth}, device);
  queued_.clear();
  try {
    for (int64_t i = 0; i < n; ++i) queued_.push_back(queue_step(log_.data() + i * kStepLogWidth));
  } catch (...) {
    log_ = Tensor();
    queued_.clear();
    throw;
  }
}

const Tensor& Trainer::pending_log() const {
  TF_CHECK(chunk_pending(), "no chunk of steps is pending");
  return log_;
}

std::vector<StepStats> Trainer::finish_chunk() { return finish_chunk(pending_log().to_vector()); }

std::vector<StepStats> Trainer::finish_chunk(const std::vector<float>& log) {
  TF_CHECK(chunk_pending(), "no chunk of steps is pending");
  TF_CHECK(log.size() == queued_.size() * kStepLogWidth, "the step log of ", queued_.size(), " steps has ",
           queued_.size() * kStepLogWidth, " numbers, got ", log.size());
  std::vector<QueuedStep> queued = std::move(queued_);
  queued_.clear();
  log_ = Tensor();
  int64_t first = step_ - static_cast<int64_t>(queued.size());
  std::vector<StepStats> stats;
  int64_t stop_step = 0, stop_skips = 0;
  for (size_t i = 0; i < queued.size(); ++i) {
    stats.push_back(settle(queued[i], log.data() + i * kStepLogWidth, first + static_cast<int64_t>(i) + 1));
    if (!stop_step && skipped_in_a_row_ >= config_.max_skips) {
      stop_step = stats.back().step;
      stop_skips = skipped_in_a_row_;
    }
  }
  if (stats.back().skipped) optimizer_->zero_grad();  // no NaN gradients left behind for whoever looks next
  if (stop_step) stop_run(stop_step, stop_skips);
  return stats;
}

StepStats Trainer::train_step() {
  start_chunk(1);
  return finish_chunk().front();
}

nlohmann::json Trainer::evaluate(uint64_t seed) const {
  Rng rng(seed);
  return task_->evaluate(*model_, rng);
}

Checkpoint Trainer::checkpoint() const {
  TF_CHECK(!chunk_pending(), "a chunk of steps is still pending: finish it before saving the run");
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
  if (exchange_) exchange_->gather_state(*optimizer_);  // every rank saves, so every rank gathers
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

}  // namespace tf
