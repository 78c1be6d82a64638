// Memory for the host backends: the caching host pool and plain memmove (overlap-safe, like CUDA's copy).
#include "backend/host_memory.hpp"

#include <cstring>

#include "backend/host_pool.hpp"

namespace tf {

namespace host {
void* allocate(size_t bytes) { return host_pool().allocate(bytes); }
void deallocate(void* p, size_t bytes) { host_pool().deallocate(p, bytes); }
void copy_from_host(void* dst, const void* src, size_t bytes) { std::memmove(dst, src, bytes); }
void copy_to_host(void* dst, const void* src, size_t bytes) { std::memmove(dst, src, bytes); }
void copy(void* dst, const void* src, size_t bytes) { std::memmove(dst, src, bytes); }
void synchronize() {}
}  // namespace host

Backend host_backend(std::string name) {
  Backend b(Device::CPU, std::move(name));
#define TF_BIND_HOST(stem, ret, name, params) b.name = &host::name;
  TF_BACKEND_MEMORY(TF_BIND_HOST)
#undef TF_BIND_HOST
  return b;
}

}  // namespace tf
