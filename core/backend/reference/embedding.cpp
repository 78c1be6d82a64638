// Reference embedding: gather rows; scatter-add gradients.
#include "backend/reference/kernels.hpp"

namespace tf::ref {

void embedding_forward(const float* table, const int32_t* ids, float* out, int64_t n, int64_t C) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t c = 0; c < C; ++c) out[i * C + c] = table[static_cast<int64_t>(ids[i]) * C + c];
}

void embedding_backward(const float* dout, const int32_t* ids, const int32_t*, float* dtable, int64_t n,
                        int64_t C) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t c = 0; c < C; ++c) dtable[static_cast<int64_t>(ids[i]) * C + c] += dout[i * C + c];
}

}  // namespace tf::ref
