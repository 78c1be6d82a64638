// CPU reductions: sums, column sums, finiteness. sum and sum_squares add float lanes over short blocks and
// the blocks in double, so a 16K-element chunk keeps close to the double reference; sum_rows streams the
// rows in order into per-column sums over blocks of rows, so a column's sum does not depend on its lane.
#pragma once
#include <algorithm>
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

constexpr int64_t kRowBlock = 64;      // rows added into fresh partial sums before they join the column total
constexpr int64_t kColumnStrip = 512;  // columns whose partial sums sit in L1 while the rows stream past

// out[c] (+)= sum over rows of x[r, c] for c in [c0, c1). Rows are read in order, whole strips at a time
// (sequential memory), into per-column partial sums: in each block of kRowBlock rows the even rows go to
// one sum and the odd rows to another, and their sum joins the column total. Every column adds in this
// same order wherever a thread's range or a strip cuts, which keeps the float error close to the double
// reference's and the result independent of the thread count.
template <class A>
void sum_rows_columns(const float* x, float* out, int64_t rows, int64_t cols, int64_t c0, int64_t c1,
                      bool accumulate) {
  auto add = [](const batch<A>& a, const batch<A>& b) { return a + b; };
  alignas(64) float total[kColumnStrip], half[2][kColumnStrip];
  for (int64_t s = c0; s < c1; s += kColumnStrip) {
    size_t n = static_cast<size_t>(c1 - s < kColumnStrip ? c1 - s : kColumnStrip);
    std::fill(total, total + n, 0.f);
    for (int64_t r0 = 0; r0 < rows; r0 += kRowBlock) {
      int64_t r1 = r0 + kRowBlock < rows ? r0 + kRowBlock : rows;
      std::fill(half[0], half[0] + n, 0.f);
      std::fill(half[1], half[1] + n, 0.f);
      for (int64_t r = r0; r < r1; ++r) update_binary<A>(x + r * cols + s, half[(r - r0) & 1], n, add);
      map_binary<A>(half[0], half[1], half[0], n, add);
      update_binary<A>(half[0], total, n, add);
    }
    if (accumulate)
      update_binary<A>(total, out + s, n, add);
    else
      std::copy(total, total + n, out + s);
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
  for_columns(rows, cols,
              [&](int64_t c0, int64_t c1) { sum_rows_columns<A>(x, out, rows, cols, c0, c1, accumulate); });
}

}  // namespace tf::cpu
