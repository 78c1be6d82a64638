// Starting, stopping and reading the profiler, and the two ways a Profile is shown: JSON (the CLI's final
// line, the JS API) and a text table (the CLI's --profile, the README). Kernel times are gathered by stem.
#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "profile/profiled_backend.hpp"
#include "profile/recorder.hpp"

namespace tf {

namespace profiler {

void start() {
  install_profiled_backends();
  set_recording(true);
}

void stop() {
  set_recording(false);
  remove_profiled_backends();
}

void reset() { clear(); }
bool running() { return recording(); }

namespace {

double ms(uint64_t ns) { return static_cast<double>(ns) * 1e-6; }

StemTime& row_for(std::vector<StemTime>& rows, const char* stem) {
  for (StemTime& r : rows)
    if (r.stem == stem) return r;
  rows.push_back(StemTime{stem});
  return rows.back();
}

std::vector<StemTime> stem_rows(const Totals& t) {
  std::vector<StemTime> rows;
  for (int k = 0; k < kKernelCount; ++k) {
    if (t.kernel_calls[k] == 0) continue;
    StemTime& r = row_for(rows, kernel_stem(static_cast<KernelId>(k)));
    r.forward_ms += ms(t.kernel_ns[k][kForward]);
    r.backward_ms += ms(t.kernel_ns[k][kBackward]);
    r.other_ms += ms(t.kernel_ns[k][kOther]);
    r.calls += t.kernel_calls[k];
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const StemTime& a, const StemTime& b) { return a.ms() > b.ms(); });
  return rows;
}

}  // namespace

Profile read() {
  Totals t = totals();
  Profile p;
  p.stems = stem_rows(t);
  for (int i = 0; i < kPhaseCount; ++i)
    p.phases.push_back({phase_name(static_cast<Phase>(i)), ms(t.phase_ns[i])});
  p.steps = t.steps;
  p.step_ms = ms(t.step_ns);
  p.enqueue_only = profiled_backends_enqueue_only();
  p.backends = profiled_backend_names();
  return p;
}

}  // namespace profiler

nlohmann::json profile_json(const Profile& p) {
  nlohmann::json stems = nlohmann::json::array(), phases = nlohmann::json::array();  // arrays keep the order
  for (const StemTime& s : p.stems)
    stems.push_back({{"stem", s.stem},
                     {"forward_ms", s.forward_ms},
                     {"backward_ms", s.backward_ms},
                     {"other_ms", s.other_ms},
                     {"calls", s.calls}});
  for (const PhaseTime& ph : p.phases) phases.push_back({{"phase", ph.phase}, {"ms", ph.ms}});
  return {{"steps", p.steps}, {"step_ms", p.step_ms},           {"stems", stems},
          {"phases", phases}, {"enqueue_only", p.enqueue_only}, {"backends", p.backends}};
}

namespace {

std::string line(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string line(const char* format, ...) {
  char buffer[160];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return std::string(buffer) + "\n";
}

}  // namespace

std::string profile_table(const Profile& p) {
  double per = p.steps > 0 ? 1.0 / static_cast<double>(p.steps) : 1.0;  // per step when steps were seen
  double step = p.step_ms * per;
  std::string out = line("%-14s %10s %10s %10s %10s %9s", "stem", "fwd ms", "bwd ms", "other ms",
                         p.steps > 0 ? "calls/step" : "calls", "% of step");
  for (const StemTime& s : p.stems)
    out += line("%-14s %10.3f %10.3f %10.3f %10.1f %8.1f%%", s.stem.c_str(), s.forward_ms * per,
                s.backward_ms * per, s.other_ms * per, static_cast<double>(s.calls) * per,
                step > 0 ? s.ms() * per / step * 100 : 0.0);
  out += line("%-14s %10s %43s", "phase", "ms", "% of step");
  for (const PhaseTime& ph : p.phases)
    out += line("%-14s %10.3f %42.1f%%", ph.phase.c_str(), ph.ms * per,
                step > 0 ? ph.ms * per / step * 100 : 0.0);
  out += line("%lld steps of %.3f ms on %s%s", static_cast<long long>(p.steps), step, p.backends.c_str(),
              p.enqueue_only ? " (kernel times are enqueue times: the device runs asynchronously)" : "");
  return out;
}

}  // namespace tf
