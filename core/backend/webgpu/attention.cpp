// Fused attention on WebGPU (attention.wgsl): a workgroup per query row forward; backward a workgroup per
// query row for ds (into an arena scratch the size of the weights) and dq, then one per key row for dk, dv.
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"
#include "backend/webgpu/scratch.hpp"

namespace tf::webgpu {

namespace {

struct AttentionParams {
  uint32_t B, heads, Tq, Tk, D, q_row, k_row, v_row, out_row, causal;
  int32_t q_offset;
  float scale;
  uint32_t has_keep, keep, q, k, v, out, weights, ds, dq, dk, dv, pad;
};
static_assert(sizeof(AttentionParams) == 96);

// The shapes of a; operand offsets are filled in by the caller.
AttentionParams attention_params(const AttentionArgs& a) {
  u32(static_cast<int64_t>(a.B) * a.heads * a.Tq * a.Tk);
  AttentionParams p{};
  p.B = u32(a.B), p.heads = u32(a.heads), p.Tq = u32(a.Tq), p.Tk = u32(a.Tk), p.D = u32(a.D);
  p.q_row = u32(a.q_row), p.k_row = u32(a.k_row), p.v_row = u32(a.v_row), p.out_row = u32(a.out_row);
  p.causal = a.causal ? 1u : 0u;
  p.q_offset = a.q_offset;
  p.scale = a.scale;
  p.has_keep = a.key_keep ? 1u : 0u;
  p.keep = a.key_keep ? word(a.key_keep) : 0u;
  return p;
}

bool empty(const AttentionArgs& a) { return a.B <= 0 || a.heads <= 0 || a.Tq <= 0 || a.Tk <= 0 || a.D <= 0; }

}  // namespace

void attention_forward(const AttentionArgs& a, const float* q, const float* k, const float* v, float* out,
                       float* weights) {
  if (empty(a)) return;
  AttentionParams p = attention_params(a);
  p.q = word(q), p.k = word(k), p.v = word(v), p.out = word(out), p.weights = word(weights);
  dispatch(Pipeline::attention_forward, p, {row_groups(int64_t{a.B} * a.heads * a.Tq)});
}

void attention_backward(const AttentionArgs& a, const float* q, const float* k, const float* v,
                        const float* weights, const float* dout, float* dq, float* dk, float* dv) {
  if (empty(a)) return;
  AttentionParams p = attention_params(a);
  Scratch<float> ds(static_cast<size_t>(a.B) * a.heads * a.Tq * a.Tk);  // [B, heads, Tq, Tk]
  p.q = word(q), p.k = word(k), p.v = word(v), p.out = word(dout), p.weights = word(weights);
  p.ds = word(ds.get()), p.dq = word(dq), p.dk = word(dk), p.dv = word(dv);
  dispatch(Pipeline::attention_backward, p, {row_groups(int64_t{a.B} * a.heads * a.Tq)});
  // dk and dv of a key: sums over the Tq queries, walked by each invocation
  dispatch(Pipeline::attention_backward_keys, p, {row_groups(int64_t{a.B} * a.heads * a.Tk)}, {p.Tq});
}

}  // namespace tf::webgpu
