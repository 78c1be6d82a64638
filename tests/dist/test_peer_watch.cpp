// A rank's wait for the others is bounded: past the patience it gives up, and after a stop signal it gives
// up once the others have had a moment to answer; an exchange that completes in time is left alone.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "dist/peer_watch.hpp"

using namespace tf;

#ifndef TF_SINGLE_THREADED  // the watch is a thread of its own
namespace {

std::atomic<bool> g_stop{false};
bool stop_requested() { return g_stop; }

void wait_for(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

}  // namespace

TEST_SUITE("peer_watch") {
  TEST_CASE("a wait past the patience gives up, naming the rank; a short one does not") {
    std::string why;
    PeerWatch watch("rank 1 of 2", 0.3, [&](const std::string& w) { why = w; });
    watch.watch([] { wait_for(0.05); });
    CHECK(why.empty());
    watch.watch([] { wait_for(0.8); });
    CHECK(why.find("rank 1 of 2: no answer from the other ranks") == 0);
  }

  TEST_CASE("after a stop signal, a wait that outlasts the others' step gives up") {
    std::string why;
    PeerWatch watch("rank 0 of 2", 60, [&](const std::string& w) { why = w; });
    watch.set_stop_check(&stop_requested);
    watch.watch([] { wait_for(0.01); });
    g_stop = true;
    watch.watch([] { wait_for(0.1); });  // the others answer within the grace
    CHECK(why.empty());
    watch.watch([] { wait_for(1.0); });
    g_stop = false;
    CHECK(why.find("rank 0 of 2: stopped while waiting for the other ranks, which no longer answer") == 0);
  }
}
#endif
