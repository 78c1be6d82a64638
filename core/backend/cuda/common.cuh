// What every CUDA kernel file needs: checked calls (each CUDA or cuBLAS failure throws tf::Error naming
// the call), launch sizes for grid-stride loops, and the 4-D index space of kernels.hpp in a form kernels
// can take by value (std::array's operator[] is host-only without nvcc's relaxed-constexpr flag).
// Everything runs on the legacy default stream, so the device pool may hand a freed block out again at once.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "backend/kernels.hpp"
#include "util/error.hpp"

namespace tf::cuda {

inline void check_call(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    fail("CUDA call ", call, " failed: ", cudaGetErrorName(e), " (", cudaGetErrorString(e), ")");
}
inline void check_call(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS) fail("cuBLAS call ", call, " failed: ", cublasGetStatusString(s));
}

constexpr int kThreads = 256;            // threads per block of the flat kernels
constexpr int64_t kMaxBlocks = 1 << 16;  // grid-stride loops cover anything beyond

inline unsigned flat_blocks(int64_t n) {
  return static_cast<unsigned>(
      std::min<int64_t>(kMaxBlocks, std::max<int64_t>(1, (n + kThreads - 1) / kThreads)));
}

// A Dims4 / Strides4 pair as plain arrays, and the offset of the flat (row-major) index n under them.
struct Space4 {
  int64_t size[4];
};
struct Step4 {
  int64_t s[4];
};
inline Space4 space4(const Dims4& d) { return {{d.size[0], d.size[1], d.size[2], d.size[3]}}; }
inline Step4 step4(const Strides4& s) { return {{s[0], s[1], s[2], s[3]}}; }

__device__ inline int64_t offset4(int64_t n, const Space4& d, const Step4& st) {
  int64_t i3 = n % d.size[3];
  n /= d.size[3];
  int64_t i2 = n % d.size[2];
  n /= d.size[2];
  int64_t i1 = n % d.size[1];
  int64_t i0 = n / d.size[1];
  return i0 * st.s[0] + i1 * st.s[1] + i2 * st.s[2] + i3 * st.s[3];
}

__device__ inline int64_t flat_begin() { return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ inline int64_t flat_stride() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }

}  // namespace tf::cuda

// Checks a CUDA runtime or cuBLAS call; after a kernel launch, TF_CUDA_LAUNCHED("kernel name").
#define TF_CUDA_CALL(expr) ::tf::cuda::check_call((expr), #expr)
#define TF_CUDA_LAUNCHED(name) ::tf::cuda::check_call(cudaGetLastError(), "launch of " name)
