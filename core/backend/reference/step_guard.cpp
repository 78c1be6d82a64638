// Reference step guard: the row that backend/optimizer_update.hpp works out, from host memory.
#include "backend/optimizer_update.hpp"
#include "backend/reference/kernels.hpp"

namespace tf::ref {

void step_guard(const float* squares, size_t n, const float* loss, float report_scale, float max_norm,
                float* out) {
  step_guard_row(squares, n, loss[0], report_scale, max_norm, out);
}

}  // namespace tf::ref
