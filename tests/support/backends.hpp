// The backends a consistency test holds to the reference kernels: the CPU backend once per instruction set
// this processor supports, and every other registered backend (CUDA) whose device is present.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "backend/backend.hpp"

namespace tf::test {

struct BackendUnderTest {
  std::string name;
  Backend* backend;
};

std::vector<BackendUnderTest> backends_under_test();
// Why CUDA is not among them, or "" when it is (printed once so a skipped GPU check is visible).
std::string cuda_skip_reason();
// Why the WebGPU backend is not among them, or "" when it is (its device is handed in only in Chromium).
std::string webgpu_skip_reason();
// Runs body once per CPU backend under test, installed meanwhile as the backend of CPU tensors.
void for_each_cpu_backend(const std::function<void()>& body);

}  // namespace tf::test
