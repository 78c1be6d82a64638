// GELU on WebGPU: a flat kernel over n elements (gelu.wgsl), the mode and whether to write the slope
// passed as parameters.
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct GeluParams {
  uint32_t x, y, slope, n, tanh_mode, with_slope, pad[2];
};
static_assert(sizeof(GeluParams) == 32);

uint32_t mode_of(GeluMode m) { return m == GeluMode::Tanh ? 1u : 0u; }

}  // namespace

void gelu_forward(const float* x, float* y, float* slope, size_t n, GeluMode mode) {
  if (n == 0) return;
  GeluParams p{
      word(x),         word(y), slope ? word(slope) : 0u, u32(static_cast<int64_t>(n)), mode_of(mode),
      slope ? 1u : 0u, {}};
  dispatch_1d(Pipeline::gelu_forward, p, n);
}

}  // namespace tf::webgpu
