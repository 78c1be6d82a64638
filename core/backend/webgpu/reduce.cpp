// WebGPU reductions (reduce.wgsl). A full sum is one dispatch of `sum` up to kPerGroup items (one workgroup,
// each invocation adding at most 64), else two: up to kPartials workgroups write partial sums into a scratch
// range, then one workgroup adds those; mode 2 counts non-finite values the same way for all_finite, which
// then reads the count back (a wait: the Asyncify test build only). sum_rows is a column-block reduction
// (launch.hpp).
#include <algorithm>

#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"
#include "backend/webgpu/scratch.hpp"
#include "util/error.hpp"

namespace tf::webgpu {

namespace {

struct Params {
  uint32_t n = 0, x = 0, out = 0, mode = 0;
  uint32_t rows = 0, cols = 0, accumulate = 0, cw = 0;
};
static_assert(sizeof(Params) == 32, "reduce.wgsl Params");

constexpr size_t kPartials = 256;       // at most one workgroup's worth, so the second pass is one workgroup
constexpr size_t kPerGroup = 64 * 256;  // items a workgroup takes before a second one (and a second pass)

enum Mode : uint32_t { kSum = 0, kSumSquares = 1, kNonFinite = 2 };

// out[0] = the reduction of x[0..n) in the given mode.
void reduce_to(const float* x, size_t n, float* out, Mode mode) {
  TF_CHECK(n <= UINT32_MAX, "WebGPU reduce: ", n, " elements is more than a u32 counts");
  size_t groups = std::clamp<size_t>((n + kPerGroup - 1) / kPerGroup, 1, kPartials);
  Params p;
  p.n = static_cast<uint32_t>(n), p.x = n ? word(x) : 0, p.mode = mode;
  Work walked{static_cast<uint32_t>((n + groups * 256 - 1) / (groups * 256))};  // items per invocation
  if (groups == 1) {
    p.out = word(out);
    dispatch(Pipeline::sum, p, {}, walked);
    return;
  }
  Scratch<float> partials(groups);
  p.out = word(partials.get());
  dispatch(Pipeline::sum, p, {static_cast<uint32_t>(groups)}, walked);
  Params q;
  q.n = static_cast<uint32_t>(groups), q.x = word(partials.get()), q.out = word(out), q.mode = kSum;
  dispatch(Pipeline::sum, q, {}, {1});
}

}  // namespace

void sum(const float* x, size_t n, float* out) { reduce_to(x, n, out, kSum); }

void sum_squares(const float* x, size_t n, float* out) { reduce_to(x, n, out, kSumSquares); }

void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, bool accumulate) {
  if (cols == 0) return;
  Params p;
  p.x = rows ? word(x) : 0, p.out = word(out);
  p.rows = u32(rows), p.cols = u32(cols), p.accumulate = accumulate, p.cw = block_columns(rows);
  u32(rows * cols);
  dispatch_1d(Pipeline::sum_rows, p, column_block_invocations(cols, p.cw), {block_walk(rows)});
}

bool all_finite(const float* x, size_t n) {
  if (n == 0) return true;
  Scratch<float> count(1);
  reduce_to(x, n, count.get(), kNonFinite);
  float host = 0.f;
  read(&host, count.get(), sizeof host);
  return host == 0.f;
}

}  // namespace tf::webgpu
