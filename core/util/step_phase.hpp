// The parts of a training step, and the one this thread is in now: the profiler's PhaseScope sets it (and
// times the phases, profile/profile.hpp); a device backend's counters read it (the WebGPU dispatch counts).
// Each moment of a step belongs to exactly one phase; copies are host<->device.
#pragma once

namespace tf {

#define TF_PROFILE_PHASES(X) \
  X(Batch, "batch")          \
  X(Forward, "forward")      \
  X(Backward, "backward")    \
  X(Optimizer, "optimizer")  \
  X(Copies, "copies")        \
  X(Other, "other")

#define TF_PROFILE_PHASE_ENUMERATOR(id, name) id,
enum class Phase { TF_PROFILE_PHASES(TF_PROFILE_PHASE_ENUMERATOR) };
#undef TF_PROFILE_PHASE_ENUMERATOR

namespace detail {
inline thread_local Phase t_phase = Phase::Forward;  // outside a step, work counts as forward work
}  // namespace detail

// This thread's phase now, profiling or not.
inline Phase current_phase() { return detail::t_phase; }
inline void set_current_phase(Phase phase) { detail::t_phase = phase; }

}  // namespace tf
