// The wrapper tables. A table holds plain function pointers, so each wrapper is a function generated per
// (device, entry) by a template that finds the entry's parameter types from the member's type, and reaches
// the wrapped backend through a per-device pointer. Tables are never destroyed: storage freed at exit may
// still call deallocate through one, and another thread may be inside one when profiling stops.
#include "profile/profiled_backend.hpp"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "profile/recorder.hpp"

namespace tf::profiler {

namespace {

Backend* g_wrapped[kDeviceCount] = {};   // the backend each device's wrapper forwards to
Backend* g_previous[kDeviceCount] = {};  // the override the wrapper replaced (nullptr: the default)
Backend* g_table[kDeviceCount] = {};     // the wrapper now current for each device, if any

constexpr bool is_host_copy(KernelId id) {
  return id == KernelId::copy_from_host || id == KernelId::copy_to_host;
}
struct CopyPhase : PhaseScope {
  CopyPhase() : PhaseScope(Phase::Copies) {}
};
struct NoPhase {};

template <int Dev, class Fn>
struct Timed;
template <int Dev, class R, class... Args>
struct Timed<Dev, R (*)(Args...)> {
  template <R (*Backend::*Entry)(Args...), KernelId Id>
  static R call(Args... args) {
    KernelTimer timer(Id);
    std::conditional_t<is_host_copy(Id), CopyPhase, NoPhase> phase;
    (void)phase;
    return (g_wrapped[Dev]->*Entry)(args...);
  }
};

template <int Dev>
Backend* make_table(const Backend& wrapped) {
  auto* table = new Backend(wrapped.device(), wrapped.name());
#define TF_TIMED_ENTRY(stem, ret, name, params) \
  table->name = &Timed<Dev, decltype(Backend::name)>::template call<&Backend::name, KernelId::name>;
  TF_BACKEND_MEMORY(TF_TIMED_ENTRY)
  TF_BACKEND_KERNELS(TF_TIMED_ENTRY)
#undef TF_TIMED_ENTRY
  return table;
}

template <int... Dev>
Backend* table_for(int device, const Backend& wrapped, std::integer_sequence<int, Dev...>) {
  Backend* made = nullptr;
  ((device == Dev ? (made = make_table<Dev>(wrapped)) : nullptr), ...);
  return made;
}

// One wrapper table per backend ever wrapped (a test may profile the reference backend), reachable forever.
Backend* table_wrapping(Backend& b) {
  static auto* tables = new std::vector<std::pair<Backend*, Backend*>>();
  for (auto& [wrapped, table] : *tables)
    if (wrapped == &b) return table;
  int d = static_cast<int>(b.device());
  tables->emplace_back(&b, table_for(d, b, std::make_integer_sequence<int, kDeviceCount>{}));
  return tables->back().second;
}

}  // namespace

void install_profiled_backends() {
  for (Backend* current : available_backends()) {
    Backend& b = backend_for(current->device());  // a test's override, when one is set
    int d = static_cast<int>(b.device());
    if (&b == g_table[d]) continue;  // already profiled
    g_wrapped[d] = &b;
    g_table[d] = table_wrapping(b);
    g_previous[d] = set_backend(b.device(), g_table[d]);
  }
}

void remove_profiled_backends() {
  for (int d = 0; d < kDeviceCount; ++d) {
    if (!g_table[d] || &backend_for(static_cast<Device>(d)) != g_table[d]) continue;
    set_backend(static_cast<Device>(d), g_previous[d]);
    g_table[d] = nullptr;
  }
}

std::string profiled_backend_names() {
  std::string names;
  for (int d = 0; d < kDeviceCount; ++d)
    if (g_wrapped[d]) names += (names.empty() ? "" : ", ") + std::string(g_wrapped[d]->name());
  return names;
}

bool profiled_backends_enqueue_only() {
  for (int d = 0; d < kDeviceCount; ++d)
    if (g_wrapped[d] && g_wrapped[d]->device() != Device::CPU) return true;
  return false;
}

}  // namespace tf::profiler
