// Learning-rate schedules as pure functions of the step: lr(step) is the value for the optimizer step that
// comes after `step` earlier ones, so lr(0) is what a PyTorch scheduler sets at construction and lr(k) what
// it sets after k calls of sched.step(). Values are worked out in double with torch's formulas, then rounded.
//
//   OneCycle sched(1e-3, 1200, {0.1});
//   for (int64_t s = 0; s < 1200; ++s) { apply_schedule(sched, s, opt); ...; opt.apply_gradients(); }
#pragma once
#include <cstdint>
#include <optional>

namespace tf {

class Optimizer;

class Schedule {
 public:
  virtual ~Schedule() = default;
  virtual float lr(int64_t step) const = 0;
  // The first-moment coefficient for this step when the schedule cycles it (one-cycle); none otherwise.
  virtual std::optional<float> beta1(int64_t) const { return std::nullopt; }
};

class ConstantSchedule : public Schedule {
 public:
  explicit ConstantSchedule(float lr) : lr_(lr) {}
  float lr(int64_t) const override { return lr_; }

 private:
  float lr_;
};

// torch.optim.lr_scheduler.OneCycleLR with anneal_strategy="cos" and three_phase=False.
struct OneCycleOptions {
  double pct_start = 0.3;
  double div_factor = 25.0;
  double final_div_factor = 1e4;
  bool cycle_momentum = true;
  double base_momentum = 0.85;
  double max_momentum = 0.95;
};

class OneCycle : public Schedule {
 public:
  OneCycle(double max_lr, int64_t total_steps, OneCycleOptions options = {});
  float lr(int64_t step) const override;                    // throws past total_steps, as torch does
  std::optional<float> beta1(int64_t step) const override;  // none when cycle_momentum is off

 private:
  // Which phase (0 rising, 1 falling) a step is in, and how far into it (0 at its start, 1 at its end).
  struct Point {
    double pct;
    int phase;
  };
  Point locate(int64_t step) const;
  double max_lr_, initial_lr_, min_lr_;
  int64_t total_steps_;
  double warm_end_;  // pct_start * total_steps - 1: the last step of the rising phase
  OneCycleOptions o_;
};

// Linear warm-up from 0 to peak_lr over warmup_steps, then a cosine from peak_lr down to min_lr at
// total_steps, min_lr after that (torch's LambdaLR then CosineAnnealingLR(T_max = total - warmup, eta_min =
// min_lr)).
class WarmupCosine : public Schedule {
 public:
  WarmupCosine(double peak_lr, int64_t warmup_steps, int64_t total_steps, double min_lr = 0.0);
  float lr(int64_t step) const override;

 private:
  double peak_, min_;
  int64_t warmup_, total_;
};

// Sets the optimizer's lr (and beta1, when the schedule cycles it) to the schedule's values at this step.
void apply_schedule(const Schedule& schedule, int64_t step, Optimizer& optimizer);

}  // namespace tf
