// The WebGPU backend's memory and bridge, in headless Chromium (tests/webgpu/run-in-chromium.mjs): arena
// pointers, uploads and reads, device copies with memmove's meaning, an arena that grows and keeps what it
// holds, a clear error past the device's limit, and a device's error raised as a tf::Error. Elsewhere
// (native, Node: no GPUDevice) each case says it skipped.
#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "util/error.hpp"
#ifdef TF_WITH_WEBGPU
#include <emscripten.h>

#include "backend/webgpu/dispatch.hpp"
#endif

using namespace tf;

namespace {

Backend* webgpu_under_test() {
  for (Backend* b : available_backends())
    if (b->device() == Device::WEBGPU) return b;
  MESSAGE("no WebGPU device: WebGPU memory checks skipped");
  return nullptr;
}

std::vector<float> iota(size_t n, float start) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

// Runs copy(dst_at, src_at, words) on the device and std::memmove on the host copy; returns both.
std::pair<std::vector<float>, std::vector<float>> copy_both(Backend& be, size_t dst_at, size_t src_at,
                                                            size_t words) {
  std::vector<float> host = iota(4096, 1.f);
  float* d = static_cast<float*>(be.allocate(host.size() * sizeof(float)));
  be.copy_from_host(d, host.data(), host.size() * sizeof(float));
  be.copy(d + dst_at, d + src_at, words * sizeof(float));
  std::memmove(host.data() + dst_at, host.data() + src_at, words * sizeof(float));
  std::vector<float> got(host.size());
  be.copy_to_host(got.data(), d, got.size() * sizeof(float));
  be.deallocate(d, host.size() * sizeof(float));
  return {host, got};
}

}  // namespace

TEST_SUITE("webgpu_memory") {
  TEST_CASE("device pointers are non-null, 256-byte aligned and distinct") {
    Backend* be = webgpu_under_test();
    if (!be) return;
    void* a = be->allocate(1);
    void* b = be->allocate(1000);
    CHECK(a != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(a) % 256 == 0);
    CHECK(reinterpret_cast<uintptr_t>(b) % 256 == 0);
    CHECK(a != b);
    be->deallocate(a, 1);
    be->deallocate(b, 1000);
  }

  TEST_CASE("an upload reads back unchanged, also at an offset inside an allocation") {
    Backend* be = webgpu_under_test();
    if (!be) return;
    std::vector<float> v = iota(1000, -3.5f), back(1000), part(7);
    float* d = static_cast<float*>(be->allocate(v.size() * sizeof(float)));
    be->copy_from_host(d, v.data(), v.size() * sizeof(float));
    be->copy_to_host(back.data(), d, back.size() * sizeof(float));
    CHECK(back == v);
    be->copy_to_host(part.data(), d + 13, part.size() * sizeof(float));  // not 256-byte aligned
    CHECK(part == std::vector<float>(v.begin() + 13, v.begin() + 20));
    be->deallocate(d, v.size() * sizeof(float));
  }

  TEST_CASE("device copies behave like memmove, overlapping or not") {
    Backend* be = webgpu_under_test();
    if (!be) return;
    for (std::array<size_t, 3> c :
         {std::array<size_t, 3>{2048, 0, 1000}, {0, 1, 3000}, {5, 0, 3000}, {3, 3, 10}}) {
      auto [want, got] = copy_both(*be, c[0], c[1], c[2]);
      INFO("copy to ", c[0], " from ", c[1], " of ", c[2]);
      CHECK(got == want);
    }
  }

#ifdef TF_WITH_WEBGPU
  TEST_CASE("the arena grows when a range does not fit, and keeps what it holds") {
    Backend* be = webgpu_under_test();
    if (!be) return;
    size_t before = webgpu::arena_bytes();
    if (2 * before > webgpu::arena_limit()) {
      MESSAGE("the device cannot double the arena: skipped");
      return;
    }
    std::vector<float> v = iota(1000, 0.5f), back(1000);
    float* d = static_cast<float*>(be->allocate(v.size() * sizeof(float)));
    be->copy_from_host(d, v.data(), v.size() * sizeof(float));
    float* big = static_cast<float*>(be->allocate(before));  // more than any free range
    CHECK(webgpu::arena_bytes() > before);
    float* tail = big + before / sizeof(float) - v.size();  // the new buffer's last words, by a kernel
    be->copy(tail, d, v.size() * sizeof(float));
    be->copy_to_host(back.data(), tail, back.size() * sizeof(float));
    CHECK(back == v);
    be->copy_to_host(back.data(), d, back.size() * sizeof(float));
    CHECK(back == v);
    be->deallocate(big, before);
    be->deallocate(d, v.size() * sizeof(float));
  }

  TEST_CASE("an allocation past the device's limit is a clear error") {
    Backend* be = webgpu_under_test();
    if (!be) return;
    CHECK_THROWS_WITH_AS(be->allocate(webgpu::arena_limit() + 1), doctest::Contains("WebGPU out of memory"),
                         Error);
    void* p = be->allocate(4);  // and the arena still works
    be->deallocate(p, 4);
  }

  TEST_CASE("an error the device reports is raised at a later call, with its message") {
    Backend* be = webgpu_under_test();
    if (!be) return;
    float* d = static_cast<float*>(be->allocate(16));
    // A buffer with no usage is a validation error, reported asynchronously as an uncaptured error.
    EM_ASM({ Module.webgpu.createBuffer({label : 'tf-invalid-buffer', size : 4, usage : 0}); });
    float host[4];
    std::string message;
    try {
      be->copy_to_host(host, d, sizeof host);  // the error has arrived by the time the read has
      be->synchronize();
    } catch (const Error& e) {
      message = e.what();
    }
    CHECK(message.find("WebGPU error") != std::string::npos);
    CHECK(message.find("tf-invalid-buffer") != std::string::npos);
    CHECK_NOTHROW(be->copy_to_host(host, d, sizeof host));
    be->deallocate(d, 16);
  }
#endif
}
