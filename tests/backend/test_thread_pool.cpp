// The CPU thread pool: every index of a region runs exactly once, whatever the thread count, the grain, how
// quickly regions follow one another (workers still polling, or already asleep) and whether a task opens
// a region of its own (it runs inline). The single-threaded wasm build runs the same checks on one thread.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "backend/cpu/thread_pool.hpp"

using namespace tf;

namespace {

// Restores the pool's thread count when a test case ends.
struct ThreadsRestored {
  int before = ThreadPool::instance().threads();
  ~ThreadsRestored() { ThreadPool::instance().set_threads(before); }
};

// How many times parallel_for(n, grain) visits each index, every range checked to lie inside [0, n).
std::vector<int> visits(int64_t n, int64_t grain) {
  std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
  std::atomic<int> bad_ranges{0};
  ThreadPool::instance().parallel_for(n, grain, [&](int64_t b, int64_t e) {
    if (b < 0 || e > n || b >= e) bad_ranges.fetch_add(1);
    for (int64_t i = b; i < e && i < n; ++i) seen[static_cast<size_t>(i)].fetch_add(1);
  });
  CHECK(bad_ranges.load() == 0);
  std::vector<int> out;
  for (auto& s : seen) out.push_back(s.load());
  return out;
}

}  // namespace

TEST_SUITE("thread_pool") {
  TEST_CASE("parallel_for visits every index once at any thread count and grain") {
    ThreadsRestored restore;
    for (int threads : {1, 2, 3, 4}) {
      ThreadPool::instance().set_threads(threads);
      for (int64_t n : {1, 2, 7, 64, 1000, 4097})
        for (int64_t grain : {1, 3, 100, 5000}) {
          INFO("threads ", threads, " n ", n, " grain ", grain);
          CHECK(visits(n, grain) == std::vector<int>(static_cast<size_t>(n), 1));
        }
    }
  }

  TEST_CASE("parallel_chunks runs every chunk once") {
    ThreadsRestored restore;
    ThreadPool::instance().set_threads(3);
    for (int64_t chunks : {1, 2, 5, 12, 13, 1000}) {
      std::vector<std::atomic<int>> seen(static_cast<size_t>(chunks));
      ThreadPool::instance().parallel_chunks(chunks, [&](int64_t c) { seen[static_cast<size_t>(c)]++; });
      int wrong = 0;
      for (auto& s : seen) wrong += s.load() != 1;
      INFO("chunks ", chunks);
      CHECK(wrong == 0);
    }
  }

  TEST_CASE("a hundred thousand back-to-back regions each add up exactly") {
    ThreadsRestored restore;
    ThreadPool::instance().set_threads(2);
    std::atomic<int64_t> total{0};
    int64_t want = 0;
    for (int r = 0; r < 100000; ++r) {
      int64_t n = 2 + r % 7;
      ThreadPool::instance().parallel_for(n, 1, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) total.fetch_add(i + r);
      });
      want += n * (n - 1) / 2 + n * r;
    }
    CHECK(total.load() == want);
  }

  TEST_CASE("what the tasks write in plain memory is there when the region returns") {
    ThreadsRestored restore;
    ThreadPool::instance().set_threads(2);
    std::vector<int64_t> cells(64);  // plain memory: ThreadSanitizer checks the region's ordering
    int64_t wrong = 0;
    for (int r = 0; r < 2000; ++r) {
      ThreadPool::instance().parallel_for(64, 1, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) cells[static_cast<size_t>(i)] = i * r;
      });
      for (int64_t i = 0; i < 64; ++i) wrong += cells[static_cast<size_t>(i)] != i * r;
    }
    CHECK(wrong == 0);
  }

  TEST_CASE("regions after the workers have gone to sleep still run on them") {
    ThreadsRestored restore;
    ThreadPool::instance().set_threads(2);
    for (int r = 0; r < 5; ++r) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));  // well past the workers' polling time
      std::atomic<int> runs{0};
      ThreadPool::instance().parallel_for(8, 1,
                                          [&](int64_t b, int64_t e) { runs += static_cast<int>(e - b); });
      CHECK(runs.load() == 8);
    }
  }

  TEST_CASE("a region opened inside a task runs inline and completes") {
    ThreadsRestored restore;
    ThreadPool::instance().set_threads(3);
    std::atomic<int> inner{0};
    ThreadPool::instance().parallel_for(6, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i)
        ThreadPool::instance().parallel_for(10, 1, [&](int64_t ib, int64_t ie) { inner += int(ie - ib); });
    });
    CHECK(inner.load() == 60);
  }

  TEST_CASE("a worker takes part in a region") {
    ThreadsRestored restore;
    ThreadPool::instance().set_threads(2);
    if (ThreadPool::instance().threads() == 1) return;  // the single-threaded build
    // Each task waits (up to 10 s, for a loaded machine) until a second thread has run a task too.
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> other{false};
    ThreadPool::instance().parallel_for(8, 1, [&](int64_t, int64_t) {
      if (std::this_thread::get_id() != caller) other = true;
      auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!other && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    });
    CHECK(other.load());
  }
}
