// Reference attention: per batch and head, scores = scale * q k^T, masked, softmax, weights @ v.
#include <cmath>
#include <vector>

#include "backend/reference/kernels.hpp"

namespace tf::ref {

void attention_forward(const AttentionArgs& a, const float* q, const float* k, const float* v, float* out,
                       float* weights) {
  std::vector<double> s(static_cast<size_t>(a.Tk));
  for (int b = 0; b < a.B; ++b) {
    for (int h = 0; h < a.heads; ++h) {
      for (int i = 0; i < a.Tq; ++i) {
        const float* qi = q + (static_cast<int64_t>(b) * a.Tq + i) * a.q_row + h * a.D;
        double m = -INFINITY;
        for (int j = 0; j < a.Tk; ++j) {
          if (!attention_visible(a, b, i, j)) continue;
          const float* kj = k + (static_cast<int64_t>(b) * a.Tk + j) * a.k_row + h * a.D;
          double dot = 0;
          for (int d = 0; d < a.D; ++d) dot += static_cast<double>(qi[d]) * kj[d];
          s[static_cast<size_t>(j)] = dot * a.scale;
          m = std::max(m, s[static_cast<size_t>(j)]);
        }
        double total = 0;
        for (int j = 0; j < a.Tk; ++j) {
          double e = attention_visible(a, b, i, j) ? std::exp(s[static_cast<size_t>(j)] - m) : 0.0;
          s[static_cast<size_t>(j)] = e;
          total += e;
        }
        float* w = weights + ((static_cast<int64_t>(b) * a.heads + h) * a.Tq + i) * a.Tk;
        float* o = out + (static_cast<int64_t>(b) * a.Tq + i) * a.out_row + h * a.D;
        // total is 0 only when no key is visible; a NaN total (a NaN or infinite score) makes the row NaN.
        for (int j = 0; j < a.Tk; ++j)
          w[j] = total == 0 ? 0.f : static_cast<float>(s[static_cast<size_t>(j)] / total);
        for (int d = 0; d < a.D; ++d) {
          double acc = 0;
          for (int j = 0; j < a.Tk; ++j)
            if (attention_visible(a, b, i,
                                  j))  // a hidden key's value never reaches the output, even as 0 * NaN
              acc +=
                  w[j] * static_cast<double>(v[(static_cast<int64_t>(b) * a.Tk + j) * a.v_row + h * a.D + d]);
          o[d] = static_cast<float>(acc);
        }
      }
    }
  }
}

void attention_backward(const AttentionArgs& a, const float* q, const float* k, const float* v,
                        const float* weights, const float* dout, float* dq, float* dk, float* dv) {
  std::vector<double> dw(static_cast<size_t>(a.Tk));
  auto row = [&](const float* base, int64_t stride, int b, int T, int t, int h) {
    return base + (static_cast<int64_t>(b) * T + t) * stride + h * a.D;
  };
  for (int b = 0; b < a.B; ++b) {
    for (int h = 0; h < a.heads; ++h) {
      for (int j = 0; j < a.Tk; ++j) {
        float* dkj = const_cast<float*>(row(dk, a.k_row, b, a.Tk, j, h));
        float* dvj = const_cast<float*>(row(dv, a.v_row, b, a.Tk, j, h));
        for (int d = 0; d < a.D; ++d) dkj[d] = dvj[d] = 0.f;
      }
      for (int i = 0; i < a.Tq; ++i) {
        const float* w = weights + ((static_cast<int64_t>(b) * a.heads + h) * a.Tq + i) * a.Tk;
        const float* go = row(dout, a.out_row, b, a.Tq, i, h);
        double wdw = 0;
        for (int j = 0; j < a.Tk; ++j) {
          const float* vj = row(v, a.v_row, b, a.Tk, j, h);
          double s = 0;
          for (int d = 0; d < a.D; ++d) s += static_cast<double>(go[d]) * vj[d];
          dw[static_cast<size_t>(j)] = s;
          wdw += w[j] * s;
        }
        float* dqi = const_cast<float*>(row(dq, a.q_row, b, a.Tq, i, h));
        const float* qi = row(q, a.q_row, b, a.Tq, i, h);
        std::vector<double> accq(static_cast<size_t>(a.D), 0.0);
        for (int j = 0; j < a.Tk; ++j) {
          double ds = w[j] * (dw[static_cast<size_t>(j)] - wdw) * a.scale;
          const float* kj = row(k, a.k_row, b, a.Tk, j, h);
          float* dkj = const_cast<float*>(row(dk, a.k_row, b, a.Tk, j, h));
          float* dvj = const_cast<float*>(row(dv, a.v_row, b, a.Tk, j, h));
          for (int d = 0; d < a.D; ++d) {
            accq[static_cast<size_t>(d)] += ds * kj[d];
            dkj[d] += static_cast<float>(ds * qi[d]);
            dvj[d] += static_cast<float>(w[j] * static_cast<double>(go[d]));
          }
        }
        for (int d = 0; d < a.D; ++d) dqi[d] = static_cast<float>(accq[static_cast<size_t>(d)]);
      }
    }
  }
}

}  // namespace tf::ref
