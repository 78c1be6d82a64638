// WebGPU strided copy (copy_strided.wgsl): one thread per element of the index space, or, when an
// accumulating copy adds many elements into one place, one thread per destination element.
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "util/error.hpp"

namespace tf::webgpu {

namespace {

struct Params {
  uint32_t n = 0, src = 0, dst = 0, accumulate = 0;
  uint32_t dims[4] = {1, 1, 1, 1};
  int32_t ss[4] = {0, 0, 0, 0};
  int32_t ds[4] = {0, 0, 0, 0};
};
static_assert(sizeof(Params) == 64, "copy_strided.wgsl Params");

struct ReduceParams {
  uint32_t n = 0, src = 0, dst = 0, inner_n = 1;
  uint32_t dims[4] = {1, 1, 1, 1};
  int32_t ss[4] = {0, 0, 0, 0};
  int32_t ds[4] = {0, 0, 0, 0};
  uint32_t inner[4] = {1, 1, 1, 1};
  int32_t inner_ss[4] = {0, 0, 0, 0};
};
static_assert(sizeof(ReduceParams) == 96, "copy_strided.wgsl ReduceParams");

int32_t i32(int64_t v) {
  TF_CHECK(v >= INT32_MIN && v <= INT32_MAX, "WebGPU copy_strided: stride ", v, " does not fit an i32");
  return static_cast<int32_t>(v);
}

// Accumulating into a destination with stride 0 along dims of size > 1: the dims split into those kept
// (one thread per destination element) and those summed (each thread's loop), both in their own order,
// right-aligned in 4-D.
void accumulate_reduced(const float* src, const Strides4& ss, float* dst, const Strides4& ds,
                        const Dims4& dims) {
  ReduceParams p;
  int kept = 3, summed = 3;
  for (int i = 3; i >= 0; --i) {
    size_t k = static_cast<size_t>(i);
    uint32_t size = static_cast<uint32_t>(dims.size[k]);
    if (ds[k] == 0 && size > 1) {
      p.inner[summed] = size, p.inner_ss[summed] = i32(ss[k]), --summed;
    } else {
      p.dims[kept] = size, p.ss[kept] = i32(ss[k]), p.ds[kept] = i32(ds[k]), --kept;
    }
  }
  p.n = p.dims[0] * p.dims[1] * p.dims[2] * p.dims[3];
  p.inner_n = p.inner[0] * p.inner[1] * p.inner[2] * p.inner[3];
  p.src = word(src), p.dst = word(dst);
  dispatch_1d(Pipeline::copy_strided_reduce, p, p.n, {p.inner_n});
}

}  // namespace

void copy_strided(const float* src, const Strides4& src_strides, float* dst, const Strides4& dst_strides,
                  const Dims4& dims, bool accumulate) {
  int64_t n = dims.numel();
  if (n == 0) return;
  TF_CHECK(n <= INT32_MAX, "WebGPU copy_strided: ", n, " elements is too many for one dispatch");
  bool aliasing = false;
  for (size_t i = 0; i < 4; ++i) aliasing |= dst_strides[i] == 0 && dims.size[i] > 1;
  if (accumulate && aliasing) return accumulate_reduced(src, src_strides, dst, dst_strides, dims);
  Params p;
  p.n = static_cast<uint32_t>(n), p.src = word(src), p.dst = word(dst), p.accumulate = accumulate;
  for (size_t i = 0; i < 4; ++i) {
    p.dims[i] = static_cast<uint32_t>(dims.size[i]);
    p.ss[i] = i32(src_strides[i]);
    p.ds[i] = i32(dst_strides[i]);
  }
  dispatch_1d(Pipeline::copy_strided, p, static_cast<size_t>(n));
}

}  // namespace tf::webgpu
