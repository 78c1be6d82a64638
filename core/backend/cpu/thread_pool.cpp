#include "backend/cpu/thread_pool.hpp"

#include <algorithm>

#ifndef TF_SINGLE_THREADED
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
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

// Workers wait on a generation counter; each region hands out task indices through an atomic so the
// caller works too. A region's tasks are indexed, so which thread runs a task never changes its result.
struct ThreadPool::Shared {
  std::mutex mutex;
  std::condition_variable wake, done;
  uint64_t generation = 0;
  bool stopping = false;
  FunctionRef<void(int)>* task = nullptr;
  int tasks = 0;
  std::atomic<int> next{0};
  std::atomic<int> finished{0};
  int busy = 0;  // workers inside a region; a new region waits for zero so none runs a stale task
  std::vector<std::thread> workers;
};

namespace {
void drain(std::atomic<int>& next, std::atomic<int>& finished, int tasks, FunctionRef<void(int)>* task) {
  for (int i = next.fetch_add(1); i < tasks; i = next.fetch_add(1)) {
    (*task)(i);
    finished.fetch_add(1);
  }
}
}  // namespace

ThreadPool::ThreadPool() : shared_(new Shared) { set_threads(default_thread_count()); }

ThreadPool::~ThreadPool() {
  stop_workers();
  delete shared_;
}

void ThreadPool::start_workers(int n) {
  Shared* s = shared_;
  for (int w = 0; w < n; ++w) {
    s->workers.emplace_back([s] {
      uint64_t seen = 0;
      for (;;) {
        std::unique_lock<std::mutex> lock(s->mutex);
        s->wake.wait(lock, [&] { return s->stopping || s->generation != seen; });
        if (s->stopping) return;
        seen = s->generation;
        FunctionRef<void(int)>* task = s->task;
        int tasks = s->tasks;
        ++s->busy;
        lock.unlock();
        drain(s->next, s->finished, tasks, task);
        lock.lock();
        --s->busy;
        s->done.notify_all();
      }
    });
  }
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
  TF_CHECK(n >= 1 && n <= 256, "thread count must be between 1 and 256, got ", n);
  if (n == threads_ && static_cast<int>(shared_->workers.size()) == n - 1) return;
  stop_workers();
  threads_ = n;
  start_workers(n - 1);
}

void ThreadPool::run(int tasks, FunctionRef<void(int)> task) {
  if (tasks <= 1 || threads_ == 1) {
    for (int i = 0; i < tasks; ++i) task(i);
    return;
  }
  Shared* s = shared_;
  {
    std::unique_lock<std::mutex> lock(s->mutex);
    s->done.wait(lock, [&] { return s->busy == 0; });
    s->task = &task;
    s->tasks = tasks;
    s->next.store(0);
    s->finished.store(0);
    ++s->generation;
  }
  s->wake.notify_all();
  drain(s->next, s->finished, tasks, &task);
  std::unique_lock<std::mutex> lock(s->mutex);
  s->done.wait(lock, [&] { return s->finished.load() == tasks && s->busy == 0; });
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

void ThreadPool::parallel_for(int64_t n, int64_t grain, FunctionRef<void(int64_t, int64_t)> f) {
  if (n <= 0) return;
  int64_t by_grain = (n + std::max<int64_t>(grain, 1) - 1) / std::max<int64_t>(grain, 1);
  int tasks = static_cast<int>(std::min<int64_t>(threads_, by_grain));
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
  int tasks = static_cast<int>(std::min<int64_t>(threads_, chunks));
  if (tasks <= 1) {
    for (int64_t c = 0; c < chunks; ++c) f(c);
    return;
  }
  run(tasks, [&](int t) {
    for (int64_t c = chunks * t / tasks; c < chunks * (t + 1) / tasks; ++c) f(c);
  });
}

}  // namespace tf
