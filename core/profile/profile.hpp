// The profiler's public face: where a step's time goes, per kernel stem (forward, backward and other
// columns) and per step phase. Start it, train, read a Profile; it stays cheap enough to leave on (each
// kernel call is timed on the calling thread by a wrapper table, profile/profiled_backend.cpp). On an
// asynchronous device (CUDA) a kernel call only enqueues work: its time is enqueue time, not run time.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/step_phase.hpp"

namespace tf {

// The parts of a training step (util/step_phase.hpp). A nested phase pauses the one around it, so the
// phases add up to the step's wall time.

struct StemTime {
  std::string stem;        // a kernel file stem of backend/kernels.hpp ("gemm", "softmax", "memory")
  double forward_ms = 0;   // calls outside the backward pass and the optimizer
  double backward_ms = 0;  // calls while the autograd engine runs backward
  double other_ms = 0;     // calls in the optimizer phase (adam_step, gradient norm, zero_grad)
  uint64_t calls = 0;
  double ms() const { return forward_ms + backward_ms + other_ms; }
};

struct PhaseTime {
  std::string phase;  // a TF_PROFILE_PHASES name
  double ms = 0;
};

struct Profile {
  std::vector<StemTime> stems;    // stems that were called, most time first
  std::vector<PhaseTime> phases;  // every phase, in step order
  int64_t steps = 0;              // training steps seen
  double step_ms = 0;             // their wall time together
  bool enqueue_only = false;      // a profiled backend is asynchronous: kernel times are enqueue times
  std::string backends;           // the profiled backends' names, e.g. "cpu-avx2"
};

nlohmann::json profile_json(const Profile& p);
// A text table: stem, fwd ms, bwd ms, other ms, calls, % of step; then the phases. Milliseconds are per
// step when steps were seen.
std::string profile_table(const Profile& p);

namespace profiler {
void start();  // wraps every registered device's current backend; records until stop()
void stop();   // restores the backends; what was recorded stays readable
void reset();  // clears what was recorded (running or not)
bool running();
Profile read();
}  // namespace profiler

// Marks the time until it ends as `phase` of the current step (current_phase); timed only when profiling.
class PhaseScope {
 public:
  explicit PhaseScope(Phase phase);
  ~PhaseScope();
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  bool active_;
  Phase outer_;
};

// Marks one training step: its wall time, counted in Profile::steps and step_ms; inside it, time outside
// any PhaseScope is Phase::Other.
class StepScope {
 public:
  StepScope();
  ~StepScope();
  StepScope(const StepScope&) = delete;
  StepScope& operator=(const StepScope&) = delete;

 private:
  bool active_;
};

}  // namespace tf
