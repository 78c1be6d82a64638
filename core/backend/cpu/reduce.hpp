// CPU reductions: sums, column sums, finiteness. sum and sum_squares add float lanes over short blocks and
// the blocks in double, so a 16K-element chunk keeps close to the double reference; sum_rows adds blocks of
// rows into per-column sums (rows streamed in order), then the blocks in order: no result depends on lanes,
// strips or threads.
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
constexpr int64_t kColumnStrip = 512;  // columns whose running sums sit in L1 while the rows stream past

// partial[c] = (the sum of the block's even rows) + (the sum of its odd rows) at column c, for c < cols:
// the rows are read in order, a strip of columns at a time (sequential memory).
template <class A>
void sum_rows_block(const float* x, int64_t rows, int64_t cols, float* partial) {
  auto add = [](const batch<A>& a, const batch<A>& b) { return a + b; };
  alignas(64) float half[2][kColumnStrip];
  for (int64_t s = 0; s < cols; s += kColumnStrip) {
    size_t n = static_cast<size_t>(cols - s < kColumnStrip ? cols - s : kColumnStrip);
    std::fill(half[0], half[0] + n, 0.f);
    std::fill(half[1], half[1] + n, 0.f);
    for (int64_t r = 0; r < rows; ++r) update_binary<A>(x + r * cols + s, half[r & 1], n, add);
    map_binary<A>(half[0], half[1], partial + s, n, add);
  }
}

// out[c] (+)= the sum of partial[b, c] over the blocks b in order, for c in [c0, c1).
template <class A>
void sum_blocks_columns(const float* partial, int64_t blocks, int64_t cols, float* out, int64_t c0,
                        int64_t c1, bool accumulate) {
  auto add = [](const batch<A>& a, const batch<A>& b) { return a + b; };
  alignas(64) float total[kColumnStrip];
  for (int64_t s = c0; s < c1; s += kColumnStrip) {
    size_t n = static_cast<size_t>(c1 - s < kColumnStrip ? c1 - s : kColumnStrip);
    std::fill(total, total + n, 0.f);
    for (int64_t b = 0; b < blocks; ++b) update_binary<A>(partial + b * cols + s, total, n, add);
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

// Blocks of kRowBlock rows are summed in parallel, then each column adds its blocks' sums in block order:
// the same additions in the same order at any thread count (and the same as one thread walking the rows).
template <class A>
void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, bool accumulate) {
  int64_t blocks = (rows + kRowBlock - 1) / kRowBlock;
  PoolBuffer<float, HostPool> partial(host_pool(), static_cast<size_t>(blocks * cols));  // [blocks, cols]
  for_chunks(blocks, [&](int64_t b) {
    int64_t r0 = b * kRowBlock;
    sum_rows_block<A>(x + r0 * cols, rows - r0 < kRowBlock ? rows - r0 : kRowBlock, cols,
                      partial.get() + b * cols);
  });
  for_columns(blocks, cols, [&](int64_t c0, int64_t c1) {
    sum_blocks_columns<A>(partial.get(), blocks, cols, out, c0, c1, accumulate);
  });
}

}  // namespace tf::cpu
