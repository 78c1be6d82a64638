// Invariants of the fused attention op, checked through the op on each CPU instruction set (installed in
// turn as the CPU backend): weight rows sum to one, permuting tokens permutes the output when there are no
// positions, a causal output ignores later tokens, padded keys get no weight, the weights have shape
// [B, heads, Tq, Tk], and the fused result equals the textbook softmax(q k^T / sqrt(D)) v composed from
// matmul, masked_fill and softmax.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "ops/ops.hpp"
#include "support/backends.hpp"
#include "util/rng.hpp"

using namespace tf;
using test::for_each_cpu_backend;

namespace {

Tensor randn(Rng& rng, const Shape& s) {
  std::vector<float> v(static_cast<size_t>(s.numel()));
  for (float& x : v) x = rng.normal();
  return Tensor::from_vector(v, s);
}

// Token t of a [B, T, C] tensor as a vector.
std::vector<float> token(const std::vector<float>& x, int64_t T, int64_t C, int64_t b, int64_t t) {
  auto begin = x.begin() + (b * T + t) * C;
  return {begin, begin + C};
}

// [B, T, C] with the tokens of each batch reordered: out[b, t] = x[b, order[t]].
Tensor permute_tokens(const Tensor& x, const std::vector<int64_t>& order) {
  int64_t B = x.size(0), T = x.size(1), C = x.size(2);
  std::vector<float> in = x.to_vector(), out(in.size());
  for (int64_t b = 0; b < B; ++b)
    for (int64_t t = 0; t < T; ++t)
      for (int64_t c = 0; c < C; ++c)
        out[static_cast<size_t>((b * T + t) * C + c)] =
            in[static_cast<size_t>((b * T + order[static_cast<size_t>(t)]) * C + c)];
  return Tensor::from_vector(out, x.shape());
}

void check_close(const std::vector<float>& got, const std::vector<float>& want, float tol) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= tol * (1.f + std::fabs(want[i])))) ++bad;
  CHECK_MESSAGE(bad == 0, bad, " of ", got.size(), " values differ by more than ", tol);
}

// The textbook multi-head attention from separate ops: per head, softmax(q k^T * scale masked) v.
Tensor composed_attention(const Tensor& q, const Tensor& k, const Tensor& v, int heads, bool causal,
                          const Tensor& key_keep) {
  int64_t B = q.size(0), Tq = q.size(1), Tk = k.size(1), C = q.size(2), D = C / heads;
  auto split_heads = [&](const Tensor& x, int64_t T) {
    return permute(reshape(x, Shape{B, T, heads, D}), {0, 2, 1, 3});
  };
  Tensor scores = scale(matmul(split_heads(q, Tq), split_heads(k, Tk), false, true),
                        1.f / std::sqrt(static_cast<float>(D)));
  if (causal) scores = masked_fill(scores, causal_mask(Tq), -INFINITY);
  if (key_keep.defined()) {
    std::vector<float> keep = key_keep.to_vector(), drop(keep.size());
    for (size_t i = 0; i < keep.size(); ++i) drop[i] = keep[i] == 0.f ? 1.f : 0.f;
    scores = masked_fill(scores, Tensor::from_vector(drop, Shape{B, 1, 1, Tk}), -INFINITY);
  }
  Tensor out = matmul(softmax(scores), split_heads(v, Tk));  // [B, heads, Tq, D]
  return reshape(permute(out, {0, 2, 1, 3}), Shape{B, Tq, C});
}

}  // namespace

TEST_SUITE("attention") {
  TEST_CASE("the weights have shape [B, heads, Tq, Tk] and each row sums to one") {
    for_each_cpu_backend([] {
      Rng rng(1);
      Tensor q = randn(rng, {3, 5, 12}), k = randn(rng, {3, 7, 12}), v = randn(rng, {3, 7, 12});
      for (bool causal : {false, true}) {
        AttentionOptions o;
        o.causal = causal;
        Tensor w;
        attention(q, k, v, 4, o, &w);
        CHECK(w.shape() == Shape({3, 4, 5, 7}));
        std::vector<float> wv = w.to_vector();
        for (size_t row = 0; row < wv.size() / 7; ++row) {
          double s = 0;
          for (size_t j = 0; j < 7; ++j) s += wv[row * 7 + j];
          CHECK(s == doctest::Approx(1.0).epsilon(1e-6));
        }
      }
    });
  }

  TEST_CASE("permuting the tokens permutes the output when there are no positions") {
    for_each_cpu_backend([] {
      Rng rng(2);
      int64_t B = 2, T = 9, C = 16;
      Tensor x = randn(rng, {B, T, 3 * C});
      std::vector<int64_t> order{4, 0, 8, 2, 7, 1, 3, 6, 5};
      auto run = [&](const Tensor& in) {
        return attention(Cols(in, 0, C), Cols(in, C, C), Cols(in, 2 * C, C), 4);
      };
      std::vector<float> out = run(x).to_vector(), perm = run(permute_tokens(x, order)).to_vector();
      for (int64_t b = 0; b < B; ++b)
        for (int64_t t = 0; t < T; ++t)
          check_close(token(perm, T, C, b, t), token(out, T, C, b, order[static_cast<size_t>(t)]), 1e-5f);
    });
  }

  TEST_CASE("a causal output at position i ignores tokens after i") {
    for_each_cpu_backend([] {
      Rng rng(3);
      int64_t B = 2, T = 11, C = 12;
      Tensor x = randn(rng, {B, T, 3 * C});
      AttentionOptions o;
      o.causal = true;
      auto run = [&](const Tensor& in) {
        return attention(Cols(in, 0, C), Cols(in, C, C), Cols(in, 2 * C, C), 3, o).to_vector();
      };
      std::vector<float> before = run(x);
      for (int64_t i : {1, 5, 10}) {
        std::vector<float> changed = x.to_vector();
        for (int64_t b = 0; b < B; ++b)
          for (int64_t t = i; t < T; ++t)
            for (int64_t c = 0; c < 3 * C; ++c)
              changed[static_cast<size_t>((b * T + t) * 3 * C + c)] = rng.normal() * 5.f;
        std::vector<float> after = run(Tensor::from_vector(changed, x.shape()));
        for (int64_t b = 0; b < B; ++b)
          for (int64_t t = 0; t < i; ++t) CHECK(token(after, T, C, b, t) == token(before, T, C, b, t));
        bool later_changed = false;
        for (int64_t b = 0; b < B; ++b)
          later_changed = later_changed || token(after, T, C, b, i) != token(before, T, C, b, i);
        CHECK(later_changed);
      }
    });
  }

  TEST_CASE("padded keys get zero weight and do not reach the output") {
    for_each_cpu_backend([] {
      Rng rng(4);
      int64_t B = 2, T = 6, C = 8;
      Tensor q = randn(rng, {B, T, C}), k = randn(rng, {B, T, C}), v = randn(rng, {B, T, C});
      std::vector<float> keep{1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0};
      AttentionOptions o;
      o.key_keep = Tensor::from_vector(keep, Shape{B, T});
      Tensor w;
      std::vector<float> out = attention(q, k, v, 2, o, &w).to_vector();
      std::vector<float> wv = w.to_vector();
      for (size_t row = 0; row < wv.size() / T; ++row) {
        int64_t b = static_cast<int64_t>(row) / (2 * T);
        for (int64_t j = 0; j < T; ++j)
          if (keep[static_cast<size_t>(b * T + j)] == 0.f) CHECK(wv[row * T + static_cast<size_t>(j)] == 0.f);
      }
      // Changing the padded keys and values changes nothing.
      std::vector<float> kv = k.to_vector(), vv = v.to_vector();
      for (int64_t b = 0; b < B; ++b)
        for (int64_t j = 0; j < T; ++j)
          if (keep[static_cast<size_t>(b * T + j)] == 0.f)
            for (int64_t c = 0; c < C; ++c) {
              kv[static_cast<size_t>((b * T + j) * C + c)] = 100.f;
              vv[static_cast<size_t>((b * T + j) * C + c)] = NAN;
            }
      std::vector<float> again =
          attention(q, Tensor::from_vector(kv, k.shape()), Tensor::from_vector(vv, v.shape()), 2, o)
              .to_vector();
      CHECK(again == out);
    });
  }

  TEST_CASE("a row with every key padded gets zero weights and a zero output") {
    for_each_cpu_backend([] {
      Rng rng(5);
      Tensor q = randn(rng, {2, 3, 4}), k = randn(rng, {2, 5, 4}), v = randn(rng, {2, 5, 4});
      AttentionOptions o;
      o.key_keep = Tensor::from_vector({0, 0, 0, 0, 0, 1, 0, 1, 1, 0}, Shape{2, 5});
      Tensor w;
      std::vector<float> out = attention(q, k, v, 1, o, &w).to_vector(), wv = w.to_vector();
      for (size_t i = 0; i < 12; ++i) CHECK(out[i] == 0.f);
      for (size_t i = 0; i < 15; ++i) CHECK(wv[i] == 0.f);
    });
  }

  TEST_CASE("the fused op equals the textbook composition of matmul, masked_fill and softmax") {
    for_each_cpu_backend([] {
      Rng rng(6);
      struct Case {
        int64_t B, Tq, Tk, C;
        int heads;
        bool causal, padding;
      };
      for (Case c : {Case{2, 7, 7, 8, 1, false, false}, Case{2, 9, 9, 24, 3, true, false},
                     Case{3, 5, 8, 16, 4, false, true}, Case{2, 32, 32, 128, 4, true, true}}) {
        Tensor q = randn(rng, {c.B, c.Tq, c.C}), k = randn(rng, {c.B, c.Tk, c.C}),
               v = randn(rng, {c.B, c.Tk, c.C});
        AttentionOptions o;
        o.causal = c.causal;
        Tensor keep;
        if (c.padding) {
          std::vector<float> kv(static_cast<size_t>(c.B * c.Tk), 1.f);
          for (int64_t b = 0; b < c.B; ++b) kv[static_cast<size_t>(b * c.Tk + c.Tk - 1 - b)] = 0.f;
          keep = Tensor::from_vector(kv, Shape{c.B, c.Tk});
          o.key_keep = keep;
        }
        check_close(attention(q, k, v, c.heads, o).to_vector(),
                    composed_attention(q, k, v, c.heads, c.causal, keep).to_vector(), 2e-6f);
      }
    });
  }
}
