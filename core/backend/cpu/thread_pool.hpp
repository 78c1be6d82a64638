// A fixed pool of worker threads for the CPU kernels. parallel_for splits [0, n) into a few contiguous
// ranges per thread, claimed as threads come free; parallel_chunks runs a fixed number of chunks so that
// reductions combine partial results in the same order whatever the thread count (results then do not
// depend on it). Built without threads (TF_SINGLE_THREADED, the single-threaded wasm build) everything runs
// inline on the caller, as does a region opened from inside a task.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tf {

// A non-owning callable reference: no allocation per parallel region, so training steps stay
// allocation-free.
template <class Sig>
class FunctionRef;
template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT: implicit from any callable
      : obj_(const_cast<void*>(static_cast<const void*>(&f))), call_([](void* o, Args... a) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<Args>(a)...);
        }) {}
  R operator()(Args... a) const { return call_(obj_, std::forward<Args>(a)...); }

 private:
  void* obj_;
  R (*call_)(void*, Args...);
};

class ThreadPool {
 public:
  static constexpr int kMaxThreads = 256;
  static ThreadPool& instance();
  int threads() const { return threads_; }
  // Changes the number of threads (1 = run on the caller only). Not to be called from inside a task.
  // Regions are opened by one thread at a time (the one running the kernels).
  void set_threads(int n);
  // f(begin, end) over contiguous ranges covering [0, n); ranges are at least `grain` long where possible.
  void parallel_for(int64_t n, int64_t grain, FunctionRef<void(int64_t, int64_t)> f);
  // f(chunk) for chunk in [0, chunks), chunks spread over the threads.
  void parallel_chunks(int64_t chunks, FunctionRef<void(int64_t)> f);
  ~ThreadPool();

 private:
  ThreadPool();
  void run(int tasks, FunctionRef<void(int)> task);
  void start_workers(int n);
  void stop_workers();
  struct Shared;
  [[maybe_unused]] Shared* shared_;  // none in the single-threaded build
  int threads_ = 1;
};

int default_thread_count();  // hardware threads, at least 1

}  // namespace tf
