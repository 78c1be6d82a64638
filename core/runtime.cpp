#include "runtime.hpp"

#include "backend/backend.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "backend/host_pool.hpp"

namespace tf::runtime {

void set_threads(int n) { ThreadPool::instance().set_threads(n); }
int threads() { return ThreadPool::instance().threads(); }
int max_threads() { return ThreadPool::kMaxThreads; }

bool threaded() {
#ifdef TF_SINGLE_THREADED
  return false;
#else
  return true;
#endif
}

MemoryStats host_memory() {
  return {static_cast<uint64_t>(host_pool().live_bytes()), static_cast<uint64_t>(host_pool().cached_bytes())};
}

uint64_t flops_done() { return flop_count(); }

Device usable_device(const std::string& name) {
  Device d = parse_device(name);
  backend_for(d);  // throws a clear message when CUDA is not built or no GPU is present
  return d;
}

}  // namespace tf::runtime
