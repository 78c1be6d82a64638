// Embedding on WebGPU: a flat gather, and a scatter-add with one invocation per column (embedding.wgsl).
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct EmbeddingParams {
  uint32_t table, ids, rows, n, C, pad[3];
};
static_assert(sizeof(EmbeddingParams) == 32);

EmbeddingParams embedding_params(const float* table, const int32_t* ids, const float* rows, int64_t n,
                                 int64_t C) {
  u32(n * C);  // every element index fits the shader's u32 arithmetic
  return {word(table), word(ids), word(rows), u32(n), u32(C), {}};
}

}  // namespace

void embedding_forward(const float* table, const int32_t* ids, float* out, int64_t n, int64_t C) {
  if (n <= 0 || C <= 0) return;
  EmbeddingParams p = embedding_params(table, ids, out, n, C);
  dispatch_1d(Pipeline::embedding_forward, p, static_cast<size_t>(n * C));
}

void embedding_backward(const float* dout, const int32_t* ids, float* dtable, int64_t n, int64_t C) {
  if (n <= 0 || C <= 0) return;
  EmbeddingParams p = embedding_params(dtable, ids, dout, n, C);
  dispatch_1d(Pipeline::embedding_backward, p, static_cast<size_t>(C), {p.n});
}

}  // namespace tf::webgpu
