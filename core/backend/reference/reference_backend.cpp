// The reference backend: host memory, and every kernel of kernels.hpp from tf::ref (reference/<stem>.cpp).
// Tests install it with set_backend(Device::CPU, &reference_backend()) to run whole models on the oracle.
#include "backend/host_memory.hpp"
#include "backend/reference/kernels.hpp"

namespace tf {

Backend& reference_backend() {
  static Backend backend = [] {
    Backend b = host_backend("reference");
    TF_BIND_KERNELS(b, ref);
    return b;
  }();
  return backend;
}

}  // namespace tf
