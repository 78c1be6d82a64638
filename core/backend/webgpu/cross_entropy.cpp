// Cross-entropy on WebGPU (cross_entropy.wgsl): a workgroup per row forward, a flat kernel backward.
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct CrossEntropyParams {
  uint32_t logits, targets, loss, lse, dlogits, N, V, pad;
};
static_assert(sizeof(CrossEntropyParams) == 32);

}  // namespace

void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* lse,
                           int64_t N, int64_t V) {
  if (N <= 0 || V <= 0) return;
  u32(N * V);
  CrossEntropyParams p{word(logits), word(targets), word(loss_rows), word(lse), 0, u32(N), u32(V), 0};
  dispatch("cross_entropy", "cross_entropy_forward", &p, sizeof p, row_groups(N));
}

void cross_entropy_backward(const float* logits, const int32_t* targets, const float* lse,
                            const float* row_scale, float* dlogits, int64_t N, int64_t V) {
  if (N <= 0 || V <= 0) return;
  CrossEntropyParams p{word(logits),  word(targets), word(row_scale), word(lse),
                       word(dlogits), u32(N),        u32(V),          0};
  dispatch_1d("cross_entropy", "cross_entropy_backward", &p, sizeof p, static_cast<size_t>(N * V));
}

}  // namespace tf::webgpu
