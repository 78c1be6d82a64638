// The reference backend: host memory, and every kernel of kernels.hpp from tf::ref (reference/<stem>.cpp).
// Tests install it with set_backend(Device::CPU, &reference_backend()) to run whole models on the oracle.
#include "backend/host_memory.hpp"
#include "backend/reference/kernels.hpp"

namespace tf {

Backend& reference_backend() {
  static Backend backend = [] {
    Backend b = host_backend("reference");
#define TF_BIND_REFERENCE(stem, ret, name, params) b.name = &ref::name;
    TF_BACKEND_KERNELS(TF_BIND_REFERENCE)
#undef TF_BIND_REFERENCE
    return b;
  }();
  return backend;
}

}  // namespace tf
