// The schedules' formulas, in the order torch evaluates them so the doubles agree before rounding to float.
#include "optim/schedule.hpp"

#include <cmath>

#include "optim/optimizer.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

constexpr double kPi = 3.141592653589793;

// Cosine from start (pct 0) to end (pct 1): torch's OneCycleLR._annealing_cos.
double anneal_cos(double start, double end, double pct) {
  double cos_out = std::cos(kPi * pct) + 1;
  return end + (start - end) / 2.0 * cos_out;
}

}  // namespace

OneCycle::OneCycle(double max_lr, int64_t total_steps, OneCycleOptions options)
    : max_lr_(max_lr), total_steps_(total_steps), o_(options) {
  TF_CHECK(total_steps > 0, "OneCycle: total_steps must be positive, got ", total_steps);
  TF_CHECK(o_.pct_start >= 0 && o_.pct_start <= 1, "OneCycle: pct_start must be in [0, 1], got ",
           o_.pct_start);
  TF_CHECK(max_lr > 0 && o_.div_factor > 0 && o_.final_div_factor > 0,
           "OneCycle: max_lr and the div factors must be > 0");
  initial_lr_ = max_lr / o_.div_factor;
  min_lr_ = initial_lr_ / o_.final_div_factor;
  warm_end_ = o_.pct_start * static_cast<double>(total_steps) - 1;
  // torch divides by each phase's length; a zero-length phase would divide by zero there too.
  TF_CHECK(warm_end_ != 0 && warm_end_ != static_cast<double>(total_steps - 1), "OneCycle: pct_start ",
           o_.pct_start, " with ", total_steps, " steps leaves a phase of zero length");
}

OneCycle::Point OneCycle::locate(int64_t step) const {
  TF_CHECK(step >= 0 && step <= total_steps_, "OneCycle: step ", step, " is outside the schedule's ",
           total_steps_, " steps");
  double s = static_cast<double>(step);
  if (s <= warm_end_) return {s / warm_end_, 0};
  double end = static_cast<double>(total_steps_ - 1);
  return {(s - warm_end_) / (end - warm_end_), 1};
}

float OneCycle::lr(int64_t step) const {
  Point p = locate(step);
  double v = p.phase == 0 ? anneal_cos(initial_lr_, max_lr_, p.pct) : anneal_cos(max_lr_, min_lr_, p.pct);
  return static_cast<float>(v);
}

std::optional<float> OneCycle::beta1(int64_t step) const {
  if (!o_.cycle_momentum) return std::nullopt;
  Point p = locate(step);
  double v = p.phase == 0 ? anneal_cos(o_.max_momentum, o_.base_momentum, p.pct)
                          : anneal_cos(o_.base_momentum, o_.max_momentum, p.pct);
  return static_cast<float>(v);
}

WarmupCosine::WarmupCosine(double peak_lr, int64_t warmup_steps, int64_t total_steps, double min_lr)
    : peak_(peak_lr), min_(min_lr), warmup_(warmup_steps), total_(total_steps) {
  TF_CHECK(warmup_steps >= 0 && total_steps > warmup_steps,
           "WarmupCosine: need 0 <= warmup_steps < total_steps, got ", warmup_steps, " and ", total_steps);
  TF_CHECK(min_lr >= 0 && peak_lr >= min_lr, "WarmupCosine: need 0 <= min_lr <= peak_lr");
}

float WarmupCosine::lr(int64_t step) const {
  TF_CHECK(step >= 0, "WarmupCosine: negative step ", step);
  if (step < warmup_)
    return static_cast<float>(peak_ * (static_cast<double>(step) / static_cast<double>(warmup_)));
  if (step >= total_) return static_cast<float>(min_);
  double pct = static_cast<double>(step - warmup_) / static_cast<double>(total_ - warmup_);
  return static_cast<float>(min_ + (peak_ - min_) * (1 + std::cos(kPi * pct)) / 2);
}

void apply_schedule(const Schedule& schedule, int64_t step, Optimizer& optimizer) {
  optimizer.set_lr(schedule.lr(step));
  if (std::optional<float> b = schedule.beta1(step)) optimizer.set_beta1(*b);
}

}  // namespace tf
