// Strided copy over the 4-D index space: permutes, narrows, concatenations, broadcasts, and (accumulating)
// the reduction of a broadcast gradient. When a destination stride is 0 several elements add into one
// place, so those sums use atomicAdd: their order, and so their last bits, may vary between runs.
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {

enum class Write { Set, Add, AtomicAdd };

template <Write W>
__global__ void copy_kernel(const float* src, Step4 ss, float* dst, Step4 ds, Space4 d, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) {
    float v = src[offset4(i, d, ss)];
    float* t = dst + offset4(i, d, ds);
    if (W == Write::Set)
      *t = v;
    else if (W == Write::Add)
      *t += v;
    else
      atomicAdd(t, v);
  }
}

}  // namespace

void copy_strided(const float* src, const Strides4& src_strides, float* dst, const Strides4& dst_strides,
                  const Dims4& dims, bool accumulate) {
  int64_t n = dims.numel();
  if (n <= 0) return;
  bool aliasing = false;
  for (size_t i = 0; i < 4; ++i) aliasing |= dst_strides[i] == 0 && dims.size[i] > 1;
  Step4 ss = step4(src_strides), ds = step4(dst_strides);
  Space4 d = space4(dims);
  unsigned blocks = flat_blocks(n);
  if (!accumulate)
    copy_kernel<Write::Set><<<blocks, kThreads>>>(src, ss, dst, ds, d, n);
  else if (aliasing)
    copy_kernel<Write::AtomicAdd><<<blocks, kThreads>>>(src, ss, dst, ds, d, n);
  else
    copy_kernel<Write::Add><<<blocks, kThreads>>>(src, ss, dst, ds, d, n);
  TF_CUDA_LAUNCHED("copy_kernel");
}

}  // namespace tf::cuda
