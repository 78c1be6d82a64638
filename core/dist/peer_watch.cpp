#include "dist/peer_watch.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace tf {

namespace {

constexpr int64_t kSecond = 1000000000;
constexpr auto kLookEvery = std::chrono::milliseconds(100);

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void print_and_exit(const std::string& why) {
  std::fprintf(stderr, "\n%s\n", why.c_str());
  std::fflush(stderr);
  _exit(1);  // the main thread is blocked inside the exchange: nothing there can unwind
}

}  // namespace

PeerWatch::PeerWatch(std::string who, double patience_s, GiveUp give_up)
    : who_(std::move(who)),
      patience_ns_(static_cast<int64_t>(patience_s * kSecond)),
      give_up_(give_up ? std::move(give_up) : GiveUp(print_and_exit)),
      thread_([this] { loop(); }) {}

PeerWatch::~PeerWatch() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void PeerWatch::begin() {
  int64_t now = now_ns();
  // A slow step (a save, the first one) counts for a while, then fades.
  if (last_end_) recent_gap_ = std::max<int64_t>(now - last_end_, recent_gap_ * 9 / 10);
  waiting_since_ = now;
}

void PeerWatch::end() {
  waiting_since_ = 0;
  last_end_ = now_ns();
}

void PeerWatch::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, kLookEvery, [this] { return done_; })) check(now_ns());
}

void PeerWatch::check(int64_t now) {
  bool (*stop_requested)() = stop_check_;
  if (!stop_seen_ && stop_requested && stop_requested()) stop_seen_ = now;
  int64_t since = waiting_since_;
  if (!since || since == given_up_on_) return;
  std::string waited = std::to_string((now - since + kSecond / 2) / kSecond) + " s";
  if (now - since > patience_ns_) {
    given_up_on_ = since;
    give_up_(who_ + ": no answer from the other ranks for " + waited +
             " (one hangs, or its machine is gone); stopping without saving: the last checkpoint stays as "
             "it was");
  } else if (stop_seen_ && now - std::max(since, stop_seen_) > kSecond / 4 + 2 * recent_gap_) {
    given_up_on_ = since;
    give_up_(who_ +
             ": stopped while waiting for the other ranks, which no longer answer (one has died or "
             "was killed); nothing was saved: the last checkpoint stays as it was");
  }
}

}  // namespace tf
