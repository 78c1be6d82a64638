// What every backend on the host shares: memory from the caching host pool and plain memcpy between host
// buffers. The CPU (xsimd) and reference backends differ only in their kernels.
#pragma once
#include <cstring>

#include "backend/backend.hpp"
#include "backend/host_pool.hpp"

namespace tf {

class HostBackend : public Backend {
 public:
  Device device() const override { return Device::CPU; }
  void* allocate(size_t bytes) override { return host_pool().allocate(bytes); }
  void deallocate(void* p, size_t bytes) override { host_pool().deallocate(p, bytes); }
  void copy_from_host(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copy_to_host(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copy(void* dst, const void* src, size_t bytes) override { std::memmove(dst, src, bytes); }
};

}  // namespace tf
