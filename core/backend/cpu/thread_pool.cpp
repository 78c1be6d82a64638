// The thread pool (see thread_pool.hpp). A parallel region costs the caller one atomic store and, only when
// a worker has gone to sleep, a notify: idle workers poll for the next region for a short while first,
// since a training step runs hundreds of short kernels back to back. Tasks are claimed by a compare-and-swap
// on one word, and the caller runs tasks too, so a region never waits for a worker to wake.
#include "backend/cpu/thread_pool.hpp"

#include <algorithm>

#ifndef TF_SINGLE_THREADED
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#endif

#include "util/error.hpp"

namespace tf {

#ifdef TF_SINGLE_THREADED

struct ThreadPool::Shared {};
ThreadPool::ThreadPool() : shared_(nullptr) {}
ThreadPool::~ThreadPool() = default;
void ThreadPool::set_threads(int n) { TF_CHECK(n >= 1, "thread count must be at least 1, got ", n); }
void ThreadPool::run(int tasks, FunctionRef<void(int)> task) {
  for (int i = 0; i < tasks; ++i) task(i);
}
void ThreadPool::start_workers(int) {}
void ThreadPool::stop_workers() {}
int default_thread_count() { return 1; }

#else

namespace {

// A region's ticket packs its generation, its task count and the next unclaimed task index into one word,
// so a thread claims a task with one compare-and-swap that also proves the region is still the one it
// read: a worker late for a region can never run a task of the next one.
constexpr int kIndexBits = 16, kCountBits = 16;
constexpr uint64_t kIndexMask = (uint64_t(1) << kIndexBits) - 1;
uint64_t ticket_generation(uint64_t t) { return t >> (kIndexBits + kCountBits); }
int ticket_count(uint64_t t) { return static_cast<int>((t >> kIndexBits) & kIndexMask); }
int ticket_index(uint64_t t) { return static_cast<int>(t & kIndexMask); }
uint64_t make_ticket(uint64_t generation, int count) {
  return (generation << (kIndexBits + kCountBits)) | (static_cast<uint64_t>(count) << kIndexBits);
}

// How long an idle worker polls for the next region before it sleeps: a training step's kernels follow one
// another within microseconds, and waking a sleeping thread costs tens of them.
constexpr auto kSpin = std::chrono::microseconds(50);

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

thread_local bool t_in_region = false;  // a task that opens a region runs it inline (no nesting)

}  // namespace

// The caller publishes a region by storing a fresh ticket; workers poll it, then sleep on `wake` once they
// have waited kSpin. The caller takes the mutex only when a worker sleeps.
struct ThreadPool::Shared {
  std::atomic<uint64_t> ticket{0};
  std::atomic<FunctionRef<void(int)>*> task{nullptr};
  std::atomic<int> finished{0};  // tasks of the current region done
  std::atomic<int> sleepers{0};
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::condition_variable wake;
  std::vector<std::thread> workers;

  // Claims and runs tasks of region `generation` until none is left; false if the region is gone.
  void drain(uint64_t generation) {
    uint64_t t = ticket.load(std::memory_order_acquire);
    while (ticket_generation(t) == generation && ticket_index(t) < ticket_count(t)) {
      if (!ticket.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel, std::memory_order_acquire))
        continue;
      // The claimed task is unfinished, so the caller is still inside this region and `task` is its own.
      (*task.load(std::memory_order_relaxed))(ticket_index(t));
      finished.fetch_add(1, std::memory_order_release);
      t = ticket.load(std::memory_order_acquire);
    }
  }

  // Waits until a region newer than `seen` is published (or the pool stops); returns its generation.
  uint64_t next_region(uint64_t seen) {
    auto fresh = [&] {
      return ticket_generation(ticket.load(std::memory_order_seq_cst)) != seen || stopping;
    };
    auto deadline = std::chrono::steady_clock::now() + kSpin;
    for (int i = 1; !fresh(); ++i) {
      cpu_relax();
      if (i % 256 == 0 && std::chrono::steady_clock::now() > deadline) {
        std::unique_lock<std::mutex> lock(mutex);
        sleepers.fetch_add(1, std::memory_order_seq_cst);  // before `fresh` reads the ticket (see publish)
        wake.wait(lock, fresh);
        sleepers.fetch_sub(1, std::memory_order_relaxed);
        break;
      }
    }
    return ticket_generation(ticket.load(std::memory_order_acquire));
  }

  // Stores the ticket, then reads `sleepers`: a worker adds itself to `sleepers` before it reads the ticket,
  // so (sequentially consistent) either it sees the new ticket or this sees it and wakes it. Taking the mutex
  // first means the worker is either inside wait() or not yet past its check.
  void publish(uint64_t t) {
    ticket.store(t, std::memory_order_seq_cst);
    if (sleepers.load(std::memory_order_seq_cst) > 0) {
      { std::lock_guard<std::mutex> lock(mutex); }
      wake.notify_all();
    }
  }

  // `seen` is the last region published before the worker was started: a thread that starts late must
  // still join the regions opened meanwhile.
  void worker_loop(uint64_t seen) {
    t_in_region = true;
    for (;;) {
      seen = next_region(seen);
      if (stopping) return;
      drain(seen);
    }
  }
};

ThreadPool::ThreadPool() : shared_(new Shared) { set_threads(default_thread_count()); }

ThreadPool::~ThreadPool() {
  stop_workers();
  delete shared_;
}

void ThreadPool::start_workers(int n) {
  Shared* s = shared_;
  uint64_t seen = ticket_generation(s->ticket.load(std::memory_order_relaxed));
  for (int w = 0; w < n; ++w) s->workers.emplace_back([s, seen] { s->worker_loop(seen); });
}

void ThreadPool::stop_workers() {
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->stopping = true;
  }
  shared_->wake.notify_all();
  for (auto& t : shared_->workers) t.join();
  shared_->workers.clear();
  shared_->stopping = false;
}

void ThreadPool::set_threads(int n) {
  TF_CHECK(n >= 1 && n <= kMaxThreads, "thread count must be between 1 and ", kMaxThreads, ", got ", n);
  if (n == threads_ && static_cast<int>(shared_->workers.size()) == n - 1) return;
  stop_workers();
  threads_ = n;
  start_workers(n - 1);
}

// The caller publishes the region, works through it like any worker, then waits (polling: the tasks left
// are already running) until every task is done before its stack-held `task` goes away.
void ThreadPool::run(int tasks, FunctionRef<void(int)> task) {
  if (tasks <= 1 || threads_ == 1 || t_in_region) {
    for (int i = 0; i < tasks; ++i) task(i);
    return;
  }
  Shared* s = shared_;
  uint64_t generation = ticket_generation(s->ticket.load(std::memory_order_relaxed)) + 1;
  s->task.store(&task, std::memory_order_relaxed);
  s->finished.store(0, std::memory_order_relaxed);
  s->publish(make_ticket(generation, tasks));
  t_in_region = true;
  s->drain(generation);
  t_in_region = false;
  for (int i = 1; s->finished.load(std::memory_order_acquire) < tasks; ++i) {
    if (i % 64 == 0)
      std::this_thread::yield();
    else
      cpu_relax();
  }
}

int default_thread_count() {
#ifdef __EMSCRIPTEN__
  // The threaded wasm build: a thread starts only on a worker the page loaded beforehand, and joining one
  // that never started blocks for ever, so the front end (which sized the worker pool) picks the count.
  return 1;
#endif
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(std::min(n, 64u));
}

#endif

ThreadPool& ThreadPool::instance() {
  static ThreadPool pool;
  return pool;
}

namespace {

// Up to kTasksPerThread tasks per thread where the grain allows: tasks are claimed as threads come free, so
// a thread the OS pauses (a shared machine) holds up only its current task, not a whole share.
constexpr int kTasksPerThread = 4;

// How many tasks a region of `units` independent pieces of work is cut into on `threads` threads.
int task_count(int threads, int64_t units) {
  return threads == 1 ? 1 : static_cast<int>(std::min<int64_t>(kTasksPerThread * threads, units));
}

}  // namespace

void ThreadPool::parallel_for(int64_t n, int64_t grain, FunctionRef<void(int64_t, int64_t)> f) {
  if (n <= 0) return;
  int64_t by_grain = (n + std::max<int64_t>(grain, 1) - 1) / std::max<int64_t>(grain, 1);
  int tasks = task_count(threads_, by_grain);
  if (tasks <= 1) {
    f(0, n);
    return;
  }
  run(tasks, [&](int t) {
    int64_t begin = n * t / tasks, end = n * (t + 1) / tasks;
    if (begin < end) f(begin, end);
  });
}

void ThreadPool::parallel_chunks(int64_t chunks, FunctionRef<void(int64_t)> f) {
  if (chunks <= 0) return;
  int tasks = task_count(threads_, chunks);
  if (tasks <= 1) {
    for (int64_t c = 0; c < chunks; ++c) f(c);
    return;
  }
  run(tasks, [&](int t) {
    for (int64_t c = chunks * t / tasks; c < chunks * (t + 1) / tasks; ++c) f(c);
  });
}

}  // namespace tf
