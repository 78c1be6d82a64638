// The profiler's counters and the per-thread phase bookkeeping behind PhaseScope and StepScope. A phase
// change credits the time since the last change to the phase that was current, so nested phases are
// exclusive and a step's phases add up to its wall time.
#include "profile/recorder.hpp"

namespace tf::profiler {

namespace {

std::atomic<bool> g_recording{false};
std::atomic<uint64_t> g_kernel_ns[kKernelCount][kColumnCount];
std::atomic<uint64_t> g_kernel_calls[kKernelCount];
std::atomic<uint64_t> g_phase_ns[kPhaseCount];
std::atomic<int64_t> g_steps{0};
std::atomic<uint64_t> g_step_ns{0};

// This thread's step: whether one is open, its current phase and since when.
struct ThreadStep {
  bool open = false;
  Phase phase = Phase::Other;
  Clock::time_point since, start;
};
thread_local ThreadStep t_step;

uint64_t ns(Clock::duration d) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
}

void credit_phase(Clock::time_point now) {
  if (!t_step.open) return;
  g_phase_ns[static_cast<int>(t_step.phase)].fetch_add(ns(now - t_step.since), std::memory_order_relaxed);
  t_step.since = now;
}

}  // namespace

const char* kernel_stem(KernelId id) {
#define TF_KERNEL_STEM(stem, ret, name, params) #stem,
  static const char* const stems[] = {TF_BACKEND_MEMORY(TF_KERNEL_STEM) TF_BACKEND_KERNELS(TF_KERNEL_STEM)};
#undef TF_KERNEL_STEM
  return stems[static_cast<int>(id)];
}

const char* phase_name(Phase p) {
#define TF_PHASE_NAME(id, name) name,
  static const char* const names[] = {TF_PROFILE_PHASES(TF_PHASE_NAME)};
#undef TF_PHASE_NAME
  return names[static_cast<int>(p)];
}

bool recording() { return g_recording.load(std::memory_order_relaxed); }
void set_recording(bool on) { g_recording.store(on, std::memory_order_relaxed); }

Column current_column() {
  if (current_phase() == Phase::Backward) return kBackward;
  if (current_phase() == Phase::Optimizer) return kOther;
  return kForward;
}

void add_kernel_time(KernelId id, Column column, Clock::duration spent) {
  int k = static_cast<int>(id);
  g_kernel_ns[k][column].fetch_add(ns(spent), std::memory_order_relaxed);
  g_kernel_calls[k].fetch_add(1, std::memory_order_relaxed);
}

Totals totals() {
  Totals t{};
  for (int k = 0; k < kKernelCount; ++k) {
    for (int c = 0; c < kColumnCount; ++c) t.kernel_ns[k][c] = g_kernel_ns[k][c].load();
    t.kernel_calls[k] = g_kernel_calls[k].load();
  }
  for (int p = 0; p < kPhaseCount; ++p) t.phase_ns[p] = g_phase_ns[p].load();
  t.steps = g_steps.load();
  t.step_ns = g_step_ns.load();
  return t;
}

void clear() {
  for (int k = 0; k < kKernelCount; ++k) {
    for (auto& cell : g_kernel_ns[k]) cell.store(0);
    g_kernel_calls[k].store(0);
  }
  for (auto& cell : g_phase_ns) cell.store(0);
  g_steps.store(0);
  g_step_ns.store(0);
}

}  // namespace tf::profiler

namespace tf {

using profiler::Clock;

// The phase is tracked whether or not the profiler records (a device's counters read it), timed when it does.
PhaseScope::PhaseScope(Phase phase) : active_(profiler::recording()), outer_(current_phase()) {
  if (active_) {
    profiler::credit_phase(Clock::now());
    profiler::t_step.phase = phase;
  }
  set_current_phase(phase);
}

PhaseScope::~PhaseScope() {
  if (active_) {
    profiler::credit_phase(Clock::now());
    profiler::t_step.phase = outer_;
  }
  set_current_phase(outer_);
}

StepScope::StepScope() : active_(profiler::recording() && !profiler::t_step.open) {
  if (!active_) return;
  Clock::time_point now = Clock::now();
  profiler::t_step = {true, Phase::Other, now, now};
  set_current_phase(Phase::Other);
}

StepScope::~StepScope() {
  if (!active_) return;
  Clock::time_point now = Clock::now();
  profiler::credit_phase(now);
  profiler::g_step_ns.fetch_add(profiler::ns(now - profiler::t_step.start), std::memory_order_relaxed);
  profiler::g_steps.fetch_add(1, std::memory_order_relaxed);
  profiler::t_step.open = false;
  set_current_phase(Phase::Forward);
}

}  // namespace tf
