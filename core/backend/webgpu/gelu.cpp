// GELU on WebGPU: flat kernels over n elements (gelu.wgsl), the mode passed as a parameter.
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct GeluParams {
  uint32_t x, dy, out, n, tanh_mode, pad[3];
};
static_assert(sizeof(GeluParams) == 32);

uint32_t mode_of(GeluMode m) { return m == GeluMode::Tanh ? 1u : 0u; }

}  // namespace

void gelu_forward(const float* x, float* y, size_t n, GeluMode mode) {
  if (n == 0) return;
  GeluParams p{word(x), 0, word(y), u32(static_cast<int64_t>(n)), mode_of(mode), {}};
  dispatch_1d("gelu", "gelu_forward", &p, sizeof p, n);
}

void gelu_backward(const float* x, const float* dy, float* dx, size_t n, GeluMode mode) {
  if (n == 0) return;
  GeluParams p{word(x), word(dy), word(dx), u32(static_cast<int64_t>(n)), mode_of(mode), {}};
  dispatch_1d("gelu", "gelu_backward", &p, sizeof p, n);
}

}  // namespace tf::webgpu
