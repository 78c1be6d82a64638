// What every backend table shares: the check that each entry of kernels.hpp is filled.
#include "backend/backend.hpp"

namespace tf {

bool Backend::complete() const {
  bool all = true;
#define TF_KERNEL_FILLED(stem, ret, name, params) all = all && name != nullptr;
  TF_BACKEND_MEMORY(TF_KERNEL_FILLED)
  TF_BACKEND_KERNELS(TF_KERNEL_FILLED)
#undef TF_KERNEL_FILLED
  return all;
}

}  // namespace tf
