// CPU reductions: sums, column sums, finiteness. sum and sum_squares add float lanes over short blocks and
// the blocks in double, so a 16K-element chunk keeps close to the double reference; sum_rows adds each
// column down the rows in blocks, one column per lane, so a column's sum does not depend on its lane.
#pragma once
#include <cstddef>
#include <cstdint>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/simd_tail.hpp"

namespace tf::cpu {

constexpr size_t kSumBlock = 512;  // floats added in float before going into the double total

// sum over i < n of f(x[i]) with f(batch, acc) -> acc + f(x); tail lanes read 0 (f(0) must be 0).
template <class A, class F>
double blocked_sum(const float* x, size_t n, F add) {
  constexpr size_t W = batch<A>::size;
  double total = 0;
  for (size_t b = 0; b < n; b += kSumBlock) {
    size_t e = b + kSumBlock < n ? b + kSumBlock : n, i = b;
    batch<A> acc0(0.f), acc1(0.f);
    for (; i + 2 * W <= e; i += 2 * W) {
      acc0 = add(batch<A>::load_unaligned(x + i), acc0);
      acc1 = add(batch<A>::load_unaligned(x + i + W), acc1);
    }
    for (; i + W <= e; i += W) acc0 = add(batch<A>::load_unaligned(x + i), acc0);
    if (i < e) acc1 = add(load_tail<A>(x + i, e - i, 0.f), acc1);
    total += static_cast<double>(xsimd::hadd(acc0 + acc1));
  }
  return total;
}

template <class A>
double sum_span(const float* x, size_t n) {
  return blocked_sum<A>(x, n, [](const batch<A>& v, const batch<A>& acc) { return acc + v; });
}

template <class A>
double sum_squares_span(const float* x, size_t n) {
  return blocked_sum<A>(x, n, [](const batch<A>& v, const batch<A>& acc) { return fmadd<A>(v, v, acc); });
}

constexpr int64_t kRowBlock = 64;  // rows added into a fresh register before it joins the column total

// Column sums of rows [0, rows) for the columns under one register (m lanes); blocks of rows keep the float
// error close to the double reference's without changing the order from one run to the next.
template <class A>
batch<A> column_sum(const float* x, int64_t rows, int64_t cols, int64_t m) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  // The tail register (m < W) adds in exactly the same order as a full one: a column's sum must not depend
  // on whether a thread's column range put it in a tail.
  auto load = [x, cols, m](int64_t r) {
    return m == W ? batch<A>::load_unaligned(x + r * cols)
                  : load_tail<A>(x + r * cols, static_cast<size_t>(m), 0.f);
  };
  batch<A> total(0.f);
  for (int64_t r0 = 0; r0 < rows; r0 += kRowBlock) {
    int64_t r1 = r0 + kRowBlock < rows ? r0 + kRowBlock : rows, r = r0;
    batch<A> s0(0.f), s1(0.f);
    for (; r + 2 <= r1; r += 2) {
      s0 += load(r);
      s1 += load(r + 1);
    }
    if (r < r1) s0 += load(r);
    total += s0 + s1;
  }
  return total;
}

// out[c] (+)= sum over rows of x[r, c] for c in [c0, c1), one column per lane.
template <class A>
void sum_rows_columns(const float* x, float* out, int64_t rows, int64_t cols, int64_t c0, int64_t c1,
                      bool accumulate) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  for (int64_t c = c0; c < c1; c += W) {
    int64_t m = c1 - c < W ? c1 - c : W;
    batch<A> s = column_sum<A>(x + c, rows, cols, m);
    if (m == W)
      (accumulate ? batch<A>::load_unaligned(out + c) + s : s).store_unaligned(out + c);
    else
      store_tail<A>(out + c, static_cast<size_t>(m),
                    accumulate ? load_tail<A>(out + c, static_cast<size_t>(m), 0.f) + s : s);
  }
}

// x * 0 is 0 for every finite x and NaN for NaN and +-inf; the products are summed and checked per block.
template <class A>
bool all_finite(const float* x, size_t n) {
  constexpr size_t W = batch<A>::size;
  batch<A> zero(0.f);
  for (size_t b = 0; b < n; b += kSumBlock) {
    size_t e = b + kSumBlock < n ? b + kSumBlock : n, i = b;
    batch<A> acc(0.f);
    for (; i + W <= e; i += W) acc += batch<A>::load_unaligned(x + i) * zero;
    if (i < e) acc += load_tail<A>(x + i, e - i, 0.f) * zero;
    if (xsimd::any(xsimd::isnan(acc))) return false;  // not acc != 0: ordered on AVX, false for NaN
  }
  return true;
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void sum(const float* x, size_t n, float* out) {
  out[0] = static_cast<float>(chunked_sum(x, n, &sum_span<A>));
}

template <class A>
void sum_squares(const float* x, size_t n, float* out) {
  out[0] = static_cast<float>(chunked_sum(x, n, &sum_squares_span<A>));
}

// Columns are independent: each task owns a column range and walks every row in order.
template <class A>
void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, bool accumulate) {
  for_columns(cols,
              [&](int64_t c0, int64_t c1) { sum_rows_columns<A>(x, out, rows, cols, c0, c1, accumulate); });
}

}  // namespace tf::cpu
