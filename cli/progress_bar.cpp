#include "progress_bar.hpp"

#include <unistd.h>

#include <cstdio>

namespace tf::cli {

namespace {
std::string duration(double s) {
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return buf;
}
}  // namespace

std::string human_bytes(double b) {
  char buf[32];
  if (b < 1024)
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  else if (b < 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024);
  else
    std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1024 * 1024));
  return buf;
}

ProgressBar::ProgressBar(std::string label, int64_t total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      tty_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void ProgressBar::update(int64_t done, const std::string& status) {
  auto now = std::chrono::steady_clock::now();
  // A terminal redraws at most 10 times a second; a log gets a line every 10 seconds.
  auto every = tty_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(10000);
  if (now - last_draw_ < every) return;
  last_draw_ = now;
  draw(done, status);
}

void ProgressBar::finish(const std::string& status) {
  draw(total_, status);
  if (tty_) std::fputc('\n', stderr);
}

void ProgressBar::draw(int64_t done, const std::string& status) {
  if (tty_)
    std::fprintf(stderr, "\r\033[K%s", line(done, status).c_str());
  else
    std::fprintf(stderr, "%s\n", line(done, status).c_str());
  std::fflush(stderr);
}

std::string ProgressBar::line(int64_t done, const std::string& status) const {
  constexpr int kWidth = 30;
  double frac = total_ > 0 ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  int filled = static_cast<int>(frac * kWidth);
  std::string bar(static_cast<size_t>(filled), '#');
  bar.resize(kWidth, '.');
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  std::string eta = rate > 0 && done < total_ ? duration(static_cast<double>(total_ - done) / rate) : "-";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s [%s] %lld/%lld %s  %.1f %s/s  eta %s  %s", label_.c_str(), bar.c_str(),
                static_cast<long long>(done), static_cast<long long>(total_), unit_.c_str(), rate,
                unit_.c_str(), eta.c_str(), status.c_str());
  return buf;
}

}  // namespace tf::cli
