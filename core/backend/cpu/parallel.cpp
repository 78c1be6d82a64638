// The CPU backend's work splitting (see parallel.hpp), compiled for the baseline instruction set.
#include "backend/cpu/parallel.hpp"

#include <algorithm>

namespace tf::cpu {

namespace {
ThreadPool& pool() { return ThreadPool::instance(); }
// Rows per task so that each task has at least ~kFlatGrain elements.
int64_t row_grain(int64_t cols) { return std::max<int64_t>(1, kFlatGrain / std::max<int64_t>(cols, 1)); }
}  // namespace

int pool_threads() { return pool().threads(); }

int64_t rows_of(const Dims4& d) { return d.size[0] * d.size[1] * d.size[2]; }

void for_spans(size_t n, FunctionRef<void(size_t, size_t)> f) {
  pool().parallel_for(static_cast<int64_t>(n), kFlatGrain,
                      [&](int64_t b, int64_t e) { f(static_cast<size_t>(b), static_cast<size_t>(e - b)); });
}

void for_rows(int64_t rows, int64_t cols, FunctionRef<void(int64_t, int64_t)> f) {
  pool().parallel_for(rows, row_grain(cols), f);
}

void for_columns(int64_t rows, int64_t cols, FunctionRef<void(int64_t, int64_t)> f) {
  pool().parallel_for(cols, std::max<int64_t>(16, row_grain(rows)), f);
}

void for_ranges(int64_t n, int64_t grain, FunctionRef<void(int64_t, int64_t)> f) {
  pool().parallel_for(n, grain, f);
}

void for_chunks(int64_t chunks, FunctionRef<void(int64_t)> f) { pool().parallel_chunks(chunks, f); }

double chunked_sum(const float* x, size_t n, double (*chunk)(const float*, size_t)) {
  int64_t chunks = (static_cast<int64_t>(n) + kReduceChunk - 1) / kReduceChunk;
  PoolBuffer<double, HostPool> partial(host_pool(), static_cast<size_t>(chunks));
  pool().parallel_chunks(chunks, [&](int64_t c) {
    size_t b = static_cast<size_t>(c * kReduceChunk), e = std::min(n, b + static_cast<size_t>(kReduceChunk));
    partial.get()[c] = chunk(x + b, e - b);
  });
  double s = 0;
  for (int64_t c = 0; c < chunks; ++c) s += partial.get()[c];
  return s;
}

ZeroedScratch::ZeroedScratch(size_t n) : buf_(host_pool(), n) { std::fill(buf_.get(), buf_.get() + n, 0.f); }
ZeroedScratch::~ZeroedScratch() = default;

}  // namespace tf::cpu
