// Progress on stderr: on a terminal, a one-line bar redrawn in place; otherwise (logs, pipes, CI) a plain
// line every 10 seconds and one at the end, with no control characters. Shows done/total, a bar, a rate, the
// time left and a caller-supplied status (e.g. the loss).
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace tf::cli {

class ProgressBar {
 public:
  ProgressBar(std::string label, int64_t total, std::string unit = "step");
  void update(int64_t done, const std::string& status = "");
  void finish(const std::string& status = "");  // draws the full bar and ends the line

 private:
  void draw(int64_t done, const std::string& status);
  std::string line(int64_t done, const std::string& status) const;
  std::string label_, unit_;
  int64_t total_;
  bool tty_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

std::string human_bytes(double bytes);

}  // namespace tf::cli
