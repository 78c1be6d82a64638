// A profiling Backend table per device: generated from the same kernels.hpp list as every backend, each
// entry times the call on the calling thread and forwards to the backend it wraps — no per-kernel code.
#pragma once
#include "backend/backend.hpp"

namespace tf::profiler {

// Wraps the current backend of every registered, present device and makes the wrappers current.
void install_profiled_backends();
// Makes the wrapped backends current again (where a wrapper is still the current one).
void remove_profiled_backends();
// The names of the wrapped backends, and whether any of them only enqueues work (a non-CPU device).
std::string profiled_backend_names();
bool profiled_backends_enqueue_only();

}  // namespace tf::profiler
