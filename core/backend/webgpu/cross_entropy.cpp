// Cross-entropy on WebGPU (cross_entropy.wgsl): a workgroup per row, the gradient in the same pass.
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct CrossEntropyParams {
  uint32_t logits, targets, loss, dunit, N, V, with_grad, pad;
};
static_assert(sizeof(CrossEntropyParams) == 32);

}  // namespace

void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* dunit,
                           int64_t N, int64_t V) {
  if (N <= 0 || V <= 0) return;
  u32(N * V);
  CrossEntropyParams p{word(logits), word(targets), word(loss_rows), dunit ? word(dunit) : 0u,
                       u32(N),       u32(V),        dunit ? 1u : 0u, 0};
  dispatch(Pipeline::cross_entropy_forward, p, {row_groups(N)});
}

}  // namespace tf::webgpu
