// WebGPU elementwise launchers (elementwise.wgsl): one thread per element. Params mirrors the shader's
// struct; every kernel of the stem shares it.
#include "backend/webgpu/elementwise.hpp"

#include <cstring>

#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "util/error.hpp"

namespace tf::webgpu {

namespace {

struct Params {
  uint32_t n = 0, x = 0, y = 0, z = 0;
  float alpha = 0.f;
  uint32_t op = 0, bits = 0, pad = 0;
  uint32_t dims[4] = {1, 1, 1, 1};
  int32_t sx[4] = {0, 0, 0, 0};
  int32_t sy[4] = {0, 0, 0, 0};
};
static_assert(sizeof(Params) == 80, "elementwise.wgsl Params");

uint32_t count(size_t n) {
  TF_CHECK(n <= UINT32_MAX, "WebGPU elementwise: ", n, " elements is more than a u32 counts");
  return static_cast<uint32_t>(n);
}

void run(Pipeline pipeline, const Params& p) { dispatch_1d(pipeline, p, p.n); }

void set_strides(int32_t (&out)[4], const Strides4& s) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<int32_t>(s[static_cast<size_t>(i)]);
}

}  // namespace

void copy_words(void* dst, const void* src, size_t words) {
  Params p;
  p.n = count(words), p.x = word(src), p.y = word(dst);
  run(Pipeline::copy, p);
}

void binary_forward(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                    float* out, const Dims4& dims) {
  Params p;
  p.n = count(static_cast<size_t>(dims.numel()));
  if (p.n == 0) return;
  p.x = word(a), p.y = word(b), p.z = word(out);
  p.op = op == BinaryOp::Add ? 0u : op == BinaryOp::Sub ? 1u : 2u;
  for (size_t i = 0; i < 4; ++i) p.dims[i] = static_cast<uint32_t>(dims.size[i]);
  set_strides(p.sx, sa);
  set_strides(p.sy, sb);
  run(Pipeline::binary_forward, p);
}

void fill(float* dst, float value, size_t n) {
  Params p;
  p.n = count(n), p.y = n ? word(dst) : 0;
  std::memcpy(&p.bits, &value, sizeof value);  // the exact bits, NaN payloads included
  run(Pipeline::fill, p);
}

void scale(const float* x, float alpha, float* y, size_t n) {
  Params p;
  p.n = count(n), p.alpha = alpha;
  if (n) p.x = word(x), p.y = word(y);
  run(Pipeline::scale, p);
}

void axpy(float alpha, const float* x, float* y, size_t n) {
  Params p;
  p.n = count(n), p.alpha = alpha;
  if (n) p.x = word(x), p.y = word(y);
  run(Pipeline::axpy, p);
}

void mul_accumulate(const float* a, const float* b, float* y, size_t n) {
  Params p;
  p.n = count(n);
  if (n) p.x = word(a), p.y = word(b), p.z = word(y);
  run(Pipeline::mul_accumulate, p);
}

}  // namespace tf::webgpu
