// Embedding on WebGPU (embedding.wgsl): a flat gather; the backward pass a plain scatter when no id
// repeats, else two passes over the host's rows-by-id index in chunks of 64 rows.
#include <algorithm>

#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"
#include "backend/webgpu/scratch.hpp"

namespace tf::webgpu {

namespace {

struct EmbeddingParams {
  uint32_t table, ids, rows, n, C, by_id, part, pad;
};
static_assert(sizeof(EmbeddingParams) == 32);

EmbeddingParams embedding_params(const float* table, const int32_t* ids, const float* rows, int64_t n,
                                 int64_t C) {
  u32(n * C);  // every element index fits the shader's u32 arithmetic
  return {word(table), word(ids), word(rows), u32(n), u32(C), 0, 0, 0};
}

}  // namespace

void embedding_forward(const float* table, const int32_t* ids, float* out, int64_t n, int64_t C) {
  if (n <= 0 || C <= 0) return;
  EmbeddingParams p = embedding_params(table, ids, out, n, C);
  dispatch_1d(Pipeline::embedding_forward, p, static_cast<size_t>(n * C));
}

void embedding_backward(const float* dout, const int32_t* ids, const int32_t* by_id, float* dtable, int64_t n,
                        int64_t C) {
  if (n <= 0 || C <= 0) return;
  EmbeddingParams p = embedding_params(dtable, ids, dout, n, C);
  if (!by_id) return dispatch_1d(Pipeline::embedding_scatter, p, static_cast<size_t>(n * C));
  size_t chunks = static_cast<size_t>((n + 63) / 64), invocations = chunks * static_cast<size_t>(C);
  Scratch<float> part(2 * invocations);  // [chunks, 2, C]
  p.by_id = word(by_id), p.part = word(part.get());
  dispatch_1d(Pipeline::embedding_runs, p, invocations, {static_cast<uint32_t>(std::min<int64_t>(n, 64))});
  // a run's join adds one piece per chunk the run reaches past its first: at most chunks - 1
  dispatch_1d(Pipeline::embedding_runs_join, p, invocations,
              {static_cast<uint32_t>(std::max<size_t>(chunks - 1, 1))});
}

}  // namespace tf::webgpu
