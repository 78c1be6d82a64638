// Ctrl-C (SIGINT) and SIGTERM during training: while an InterruptGuard lives, these signals only set a flag
// that the training loop reads between steps, so a step or a checkpoint being written always completes
// (no half-written temporary file is left) and the run can be saved before the process exits.
#pragma once

namespace tf::cli {

constexpr int kInterruptedExit = 130;  // the shell's status for a run stopped by Ctrl-C

class InterruptGuard {
 public:
  // Installs the flag-setting handlers; `quiet`: the handler does not say it heard the signal (the ranks of a
  // data-parallel run but rank 0).
  explicit InterruptGuard(bool quiet = false);
  ~InterruptGuard();  // restores the previous handlers
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  bool interrupted() const;
  const char* signal_name() const;  // "SIGINT" or "SIGTERM" once interrupted
  static bool requested();          // interrupted(), for a thread that watches (async-signal-safe)
};

}  // namespace tf::cli
