// Masked fill on WebGPU: a flat kernel over the index space (masked_fill.wgsl).
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct MaskedFillParams {
  uint32_t x, mask, y;
  float value;
  uint32_t size[4], mask_stride[4];
};
static_assert(sizeof(MaskedFillParams) == 48);

}  // namespace

void masked_fill(const float* x, const float* mask, const Strides4& mask_strides, float value, float* y,
                 const Dims4& dims) {
  int64_t n = dims.numel();
  if (n <= 0) return;
  MaskedFillParams p{word(x), word(mask), word(y), value, {}, {}};
  u32(n);
  for (int d = 0; d < 4; ++d) {
    p.size[d] = u32(dims.size[d]);
    p.mask_stride[d] = u32(mask_strides[d]);
  }
  dispatch_1d(Pipeline::masked_fill, p, static_cast<size_t>(n));
}

}  // namespace tf::webgpu
