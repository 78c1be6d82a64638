#include "support/backends.hpp"

#include <doctest/doctest.h>

#include "backend/cpu/isa.hpp"

namespace tf::test {

std::vector<BackendUnderTest> backends_under_test() {
  static std::vector<BackendUnderTest> list = [] {
    std::vector<BackendUnderTest> out;
    for (Backend* b : supported_cpu_backends()) out.push_back({b->name(), b});
    for (Backend* b : available_backends())
      if (b->device() != Device::CPU) out.push_back({b->name(), b});
    return out;
  }();
  return list;
}

std::string cuda_skip_reason() {
#ifdef TF_WITH_CUDA
  return cuda_available() ? "" : "CUDA backend built, but no GPU is present: CUDA checks skipped";
#else
  return "built without CUDA (-DTF_CUDA=ON): CUDA checks skipped";
#endif
}

std::string webgpu_skip_reason() {
#ifdef TF_WITH_WEBGPU
  for (Backend* b : available_backends())
    if (b->device() == Device::WEBGPU) return "";
  return "WebGPU backend built, but no GPUDevice was handed in: WebGPU checks skipped";
#else
  return "built without WebGPU (-DTF_WEBGPU=ON, run in Chromium): WebGPU checks skipped";
#endif
}

void for_each_cpu_backend(const std::function<void()>& body) {
  for (const BackendUnderTest& b : backends_under_test()) {
    if (b.backend->device() != Device::CPU) continue;
    INFO("backend ", b.name);
    Backend* previous = set_backend(Device::CPU, b.backend);
    body();
    set_backend(Device::CPU, previous);
  }
}

}  // namespace tf::test
