#include "support/backends.hpp"

#include <doctest/doctest.h>

#include "backend/cpu/kernel_table.hpp"

namespace tf {
#ifdef TF_WITH_CUDA
Backend& cuda_backend();
#endif
}  // namespace tf

namespace tf::test {

std::vector<BackendUnderTest> backends_under_test() {
  static std::vector<std::unique_ptr<Backend>> owned;
  static std::vector<BackendUnderTest> list = [] {
    std::vector<BackendUnderTest> out;
    for (const CpuKernels* k : supported_cpu_kernels()) {
      owned.push_back(make_cpu_backend(*k));
      out.push_back({std::string("cpu-") + k->isa, owned.back().get()});
    }
#ifdef TF_WITH_CUDA
    if (cuda_available()) out.push_back({"cuda", &cuda_backend()});
#endif
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
