// The step guard on WebGPU (step_guard.wgsl): one invocation adds the few dozen sums of squares and writes
// the step-log row that the optimizer kernels read, so nothing is read back in a training step. WGSL has no
// f64: the squares are added in f32 (a sum past 3.4e38 overflows here where the reference's double does
// not), and no clipping is a flag, not an infinite max_norm (WGSL may assume no infinities in arithmetic).
#include <cmath>

#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct GuardParams {
  uint32_t squares, n, loss, out, clip;
  float report_scale, max_norm, pad1;
};
static_assert(sizeof(GuardParams) == 32);

}  // namespace

void step_guard(const float* squares, size_t n, const float* loss, float report_scale, float max_norm,
                float* out) {
  GuardParams p{};
  p.squares = n ? word(squares) : 0u;
  p.n = u32(static_cast<int64_t>(n));
  p.loss = word(loss);
  p.out = word(out);
  p.clip = std::isfinite(max_norm) ? 1u : 0u;
  p.report_scale = report_scale;
  p.max_norm = p.clip ? max_norm : 0.f;
  dispatch(Pipeline::step_guard, p, {}, {p.n});
}

}  // namespace tf::webgpu
