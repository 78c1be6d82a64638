// What the profiler accumulates while it runs: nanoseconds and calls per kernel and column, nanoseconds per
// step phase, and the thread's current phase. Counters are relaxed atomics (sessions may step on several
// threads); the phase is per thread, because a step's phases are those of the thread that runs it.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>

#include "backend/kernels.hpp"
#include "profile/profile.hpp"

namespace tf::profiler {

#define TF_KERNEL_ID(stem, ret, name, params) name,
enum class KernelId { TF_BACKEND_MEMORY(TF_KERNEL_ID) TF_BACKEND_KERNELS(TF_KERNEL_ID) count };
#undef TF_KERNEL_ID
constexpr int kKernelCount = static_cast<int>(KernelId::count);
constexpr int kPhaseCount = static_cast<int>(Phase::Other) + 1;

enum Column { kForward, kBackward, kOther, kColumnCount };

using Clock = std::chrono::steady_clock;

const char* kernel_stem(KernelId id);
const char* phase_name(Phase p);

bool recording();
// The column a kernel call made now on this thread belongs to (from the thread's current phase).
Column current_column();
void add_kernel_time(KernelId id, Column column, Clock::duration spent);

struct Totals {
  uint64_t kernel_ns[kKernelCount][kColumnCount];
  uint64_t kernel_calls[kKernelCount];
  uint64_t phase_ns[kPhaseCount];
  int64_t steps;
  uint64_t step_ns;
};
Totals totals();
void clear();
void set_recording(bool on);

// Times one kernel call on the calling thread; host<->device copies are also the Copies phase.
class KernelTimer {
 public:
  explicit KernelTimer(KernelId id) : id_(id), column_(current_column()), start_(Clock::now()) {}
  ~KernelTimer() { add_kernel_time(id_, column_, Clock::now() - start_); }
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;

 private:
  KernelId id_;
  Column column_;
  Clock::time_point start_;
};

}  // namespace tf::profiler
