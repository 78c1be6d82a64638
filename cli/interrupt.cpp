#include "interrupt.hpp"

#include <unistd.h>

#include <csignal>

namespace tf::cli {

namespace {

volatile std::sig_atomic_t g_signal = 0;
volatile std::sig_atomic_t g_quiet = 0;
struct sigaction g_old_int, g_old_term;

// Only async-signal-safe calls here: a flag and one write(2), so the user sees the signal was heard even when
// a step takes seconds.
extern "C" void record_signal(int signo) {
  static const char kNote[] = "\ntinyformer: stopping after this step\n";
  if (g_signal == 0 && !g_quiet) (void)!::write(STDERR_FILENO, kNote, sizeof kNote - 1);
  g_signal = signo;
}

}  // namespace

InterruptGuard::InterruptGuard(bool quiet) {
  g_signal = 0;
  g_quiet = quiet;
  struct sigaction sa = {};
  sa.sa_handler = record_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // reads and writes carry on; the loop looks at the flag between steps
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

bool InterruptGuard::interrupted() const { return requested(); }

bool InterruptGuard::requested() { return g_signal != 0; }

const char* InterruptGuard::signal_name() const { return g_signal == SIGTERM ? "SIGTERM" : "SIGINT"; }

}  // namespace tf::cli
