// Which backend serves each device, and the FLOP counter behind the GFLOP/s readouts.
#include <atomic>

#include "backend/backend.hpp"
#include "util/error.hpp"

namespace tf {

#ifdef TF_WITH_CUDA
Backend& cuda_backend();
bool cuda_device_present();
#endif

namespace {
Backend* g_override[2] = {nullptr, nullptr};
std::atomic<uint64_t> g_flops{0};
}  // namespace

Backend& backend_for(Device d) {
  if (Backend* b = g_override[static_cast<int>(d)]) return *b;
  if (d == Device::CPU) return cpu_backend();
#ifdef TF_WITH_CUDA
  TF_CHECK(cuda_device_present(), "no CUDA device is present");
  return cuda_backend();
#else
  fail("this build has no CUDA backend (configure with -DTF_CUDA=ON)");
#endif
}

Backend* set_backend(Device d, Backend* b) {
  Backend* previous = g_override[static_cast<int>(d)];
  g_override[static_cast<int>(d)] = b;
  return previous;
}

bool cuda_available() {
#ifdef TF_WITH_CUDA
  return cuda_device_present();
#else
  return false;
#endif
}

uint64_t flop_count() { return g_flops.load(std::memory_order_relaxed); }
void add_flops(uint64_t n) { g_flops.fetch_add(n, std::memory_order_relaxed); }

}  // namespace tf
