// CPU fused attention over batch-head pairs [bh0, bh1): scores, masked softmax, weighted values.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

#include "backend/backend.hpp"
#include "backend/cpu/simd.hpp"

namespace tf::cpu {

inline bool visible(const AttentionArgs& a, int64_t b, int64_t i, int64_t j) {
  if (a.causal && j > i + a.q_offset) return false;
  return !a.key_keep || a.key_keep[b * a.Tk + j] != 0.f;
}

template <class A>
void attention_forward(const AttentionArgs& a, const float* q, const float* k, const float* v, float* out,
                       float* weights, int64_t bh0, int64_t bh1) {
  for (int64_t bh = bh0; bh < bh1; ++bh) {
    int64_t b = bh / a.heads, h = bh % a.heads;
    for (int64_t i = 0; i < a.Tq; ++i) {
      const float* qi = q + (b * a.Tq + i) * a.q_row + h * a.D;
      float* w = weights + (bh * a.Tq + i) * a.Tk;
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t j = 0; j < a.Tk; ++j) {
        if (!visible(a, b, i, j)) continue;
        const float* kj = k + (b * a.Tk + j) * a.k_row + h * a.D;
        float dot = 0;
        for (int64_t d = 0; d < a.D; ++d) dot += qi[d] * kj[d];
        w[j] = dot * a.scale;
        m = w[j] > m ? w[j] : m;
      }
      float total = 0;
      for (int64_t j = 0; j < a.Tk; ++j) {
        w[j] = visible(a, b, i, j) ? std::exp(w[j] - m) : 0.f;
        total += w[j];
      }
      float inv = total > 0 ? 1.f / total : 0.f;
      float* o = out + (b * a.Tq + i) * a.out_row + h * a.D;
      for (int64_t d = 0; d < a.D; ++d) o[d] = 0;
      for (int64_t j = 0; j < a.Tk; ++j) {
        w[j] *= inv;
        const float* vj = v + (b * a.Tk + j) * a.v_row + h * a.D;
        for (int64_t d = 0; d < a.D; ++d) o[d] += w[j] * vj[d];
      }
    }
  }
}

template <class A>
void attention_backward(const AttentionArgs& a, const float* q, const float* k, const float* v, const float* weights,
                        const float* dout, float* dq, float* dk, float* dv, int64_t bh0, int64_t bh1) {
  for (int64_t bh = bh0; bh < bh1; ++bh) {
    int64_t b = bh / a.heads, h = bh % a.heads;
    for (int64_t j = 0; j < a.Tk; ++j)
      for (int64_t d = 0; d < a.D; ++d) {
        dk[(b * a.Tk + j) * a.k_row + h * a.D + d] = 0.f;
        dv[(b * a.Tk + j) * a.v_row + h * a.D + d] = 0.f;
      }
    for (int64_t i = 0; i < a.Tq; ++i) {
      const float* w = weights + (bh * a.Tq + i) * a.Tk;
      const float* go = dout + (b * a.Tq + i) * a.out_row + h * a.D;
      const float* qi = q + (b * a.Tq + i) * a.q_row + h * a.D;
      float* dqi = dq + (b * a.Tq + i) * a.q_row + h * a.D;
      float wdw = 0;
      for (int64_t j = 0; j < a.Tk; ++j) {
        const float* vj = v + (b * a.Tk + j) * a.v_row + h * a.D;
        float s = 0;
        for (int64_t d = 0; d < a.D; ++d) s += go[d] * vj[d];
        wdw += w[j] * s;
      }
      for (int64_t d = 0; d < a.D; ++d) dqi[d] = 0.f;
      for (int64_t j = 0; j < a.Tk; ++j) {
        if (w[j] == 0.f) continue;
        const float* vj = v + (b * a.Tk + j) * a.v_row + h * a.D;
        const float* kj = k + (b * a.Tk + j) * a.k_row + h * a.D;
        float* dkj = dk + (b * a.Tk + j) * a.k_row + h * a.D;
        float* dvj = dv + (b * a.Tk + j) * a.v_row + h * a.D;
        float s = 0;
        for (int64_t d = 0; d < a.D; ++d) s += go[d] * vj[d];
        float ds = w[j] * (s - wdw) * a.scale;
        for (int64_t d = 0; d < a.D; ++d) {
          dqi[d] += ds * kj[d];
          dkj[d] += ds * qi[d];
          dvj[d] += w[j] * go[d];
        }
      }
    }
  }
}

}  // namespace tf::cpu
