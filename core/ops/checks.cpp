// Finiteness checks. A SIMD max can drop a NaN, so losses and logits are checked explicitly.
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

bool all_finite(const Tensor& x) { return x.numel() == 0 || backend_of(x).all_finite(x.data(), count(x)); }

void check_finite(const Tensor& x, const char* what) {
  TF_CHECK(all_finite(x), what, " is not finite (NaN or infinity): the run diverged or the input holds NaN");
}

}  // namespace tf
