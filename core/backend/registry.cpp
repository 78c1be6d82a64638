// The one place backends are registered: a row per backend built into this binary says which device it
// serves and whether the machine has that device. A new backend adds its row here (and its device to
// TF_DEVICES in device.hpp). Also the FLOP counter behind the GFLOP/s readouts. Each core library compiles
// its own copy of this file, with its backends' defines (core/CMakeLists.txt); the rest of the core is
// shared.
#include <algorithm>
#include <atomic>
#include <cctype>

#include "backend/backend.hpp"
#include "util/error.hpp"

namespace tf {

#ifdef TF_WITH_CUDA
Backend& cuda_backend();
bool cuda_device_present();
#endif
#ifdef TF_WITH_WEBGPU
Backend& webgpu_backend();
bool webgpu_device_present();
#endif

namespace {

struct Registration {
  Device device;
  Backend& (*backend)();
  bool (*present)();  // the machine has the device (a CUDA build runs on machines without a GPU; a WebGPU
                      // module was handed a GPUDevice or not)
};

bool always_present() { return true; }

const Registration kRegistered[] = {
    {Device::CPU, &cpu_backend, &always_present},
#ifdef TF_WITH_CUDA
    {Device::CUDA, &cuda_backend, &cuda_device_present},
#endif
#ifdef TF_WITH_WEBGPU
    {Device::WEBGPU, &webgpu_backend, &webgpu_device_present},
#endif
};

const Registration* registration_of(Device d) {
  for (const Registration& r : kRegistered)
    if (r.device == d) return &r;
  return nullptr;
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

Backend* g_override[kDeviceCount] = {};
std::atomic<uint64_t> g_flops{0};

}  // namespace

Backend& backend_for(Device d) {
  if (Backend* b = g_override[static_cast<int>(d)]) return *b;
  const Registration* r = registration_of(d);
  std::string id = upper(device_name(d));
  if (!r) fail("this build has no ", id, " backend (configure with -DTF_", id, "=ON)");
  TF_CHECK(r->present(), "no ", id, " device is present");
  return r->backend();
}

Backend* set_backend(Device d, Backend* b) {
  Backend* previous = g_override[static_cast<int>(d)];
  g_override[static_cast<int>(d)] = b;
  return previous;
}

bool cuda_available() {
  const Registration* r = registration_of(Device::CUDA);
  return r && r->present();
}

std::vector<Backend*> available_backends() {
  std::vector<Backend*> out;
  for (const Registration& r : kRegistered)
    if (r.present()) out.push_back(&r.backend());
  return out;
}

uint64_t flop_count() { return g_flops.load(std::memory_order_relaxed); }
void add_flops(uint64_t n) { g_flops.fetch_add(n, std::memory_order_relaxed); }

}  // namespace tf
