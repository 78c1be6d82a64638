// A rank's wait for the others, bounded. Every blocking exchange runs under watch(); a thread looks ten
// times a second. A rank that has waited longer than `patience` (another rank hangs, or its machine is gone)
// gives up. So does one that a stop signal reached while it waits, once the others have had time to finish
// their step (a quarter second and twice what this rank works between two exchanges of late): the signal
// reached them too, unless one has died, and then mpirun sends the survivors SIGTERM one second before
// SIGKILL. Giving up says why and ends the process with status 1, saving nothing: the last
// checkpoint stays as it was.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace tf {

class PeerWatch {
 public:
  using GiveUp = std::function<void(const std::string& why)>;
  // who: how messages name this rank ("tinyformer rank 1 of 2"); give_up: by default prints and _exit(1)s.
  PeerWatch(std::string who, double patience_s, GiveUp give_up = GiveUp());
  ~PeerWatch();
  PeerWatch(const PeerWatch&) = delete;
  PeerWatch& operator=(const PeerWatch&) = delete;

  // How the watch learns of a stop signal (read from its thread: a lock-free flag behind it).
  void set_stop_check(bool (*stop_requested)()) { stop_check_ = stop_requested; }
  // Runs `exchange`, a call that blocks until every rank has joined it, under the watch.
  template <class Exchange>
  void watch(Exchange exchange) {
    begin();
    exchange();
    end();
  }

 private:
  void begin();
  void end();
  void loop();
  void check(int64_t now);

  std::string who_;
  int64_t patience_ns_;
  GiveUp give_up_;
  std::atomic<bool (*)()> stop_check_{nullptr};
  std::atomic<int64_t> waiting_since_{0};  // steady-clock ns when the current exchange began; 0: none
  std::atomic<int64_t> recent_gap_{0};     // ns: how long this rank works between exchanges, of late
  int64_t last_end_ = 0, stop_seen_ = 0;   // the watch thread's own: when it first saw the stop signal
  int64_t given_up_on_ = 0;                // the exchange (its start) already given up on
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace tf
