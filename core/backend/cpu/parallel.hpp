// How the CPU kernels spread a call over the thread pool: flat spans, row ranges, column ranges, fixed
// chunks. Reductions use fixed-size chunks combined in order, so results depend on the instruction set but
// never on the number of threads. Everything here is compiled once without ISA flags (parallel.cpp): the
// per-ISA kernel templates call it, and a non-template inline function compiled with AVX-512 flags in one
// isa_*.cpp could otherwise be the copy the linker keeps for every ISA.
#pragma once
#include <cstddef>
#include <cstdint>

#include "backend/block_cache.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "backend/host_pool.hpp"
#include "backend/kernels.hpp"

namespace tf::cpu {

constexpr int64_t kReduceChunk = 1 << 14;  // elements per partial sum
constexpr int64_t kNormChunk = 64;         // rows per partial dgamma/dbeta
constexpr int64_t kFlatGrain = 1 << 14;    // elements per task for flat elementwise work

int pool_threads();
int64_t rows_of(const Dims4& d);  // the flattened leading three dims of the 4-D space

// f(offset, length) over spans of at least ~kFlatGrain elements covering [0, n).
void for_spans(size_t n, FunctionRef<void(size_t, size_t)> f);
// f(row0, row1) over row ranges covering [0, rows); each task gets at least ~kFlatGrain elements.
void for_rows(int64_t rows, int64_t cols, FunctionRef<void(int64_t, int64_t)> f);
// f(col0, col1) over column ranges of [0, cols) of a [rows, cols] table, each at least 16 columns wide and
// of at least ~kFlatGrain elements.
void for_columns(int64_t rows, int64_t cols, FunctionRef<void(int64_t, int64_t)> f);
// f(begin, end) over ranges of at least `grain` items covering [0, n).
void for_ranges(int64_t n, int64_t grain, FunctionRef<void(int64_t, int64_t)> f);
// f(chunk) for chunk in [0, chunks), chunks spread over the threads.
void for_chunks(int64_t chunks, FunctionRef<void(int64_t)> f);

// The sum of chunk(x + b, e - b) over kReduceChunk-sized chunks, the chunks added in order.
double chunked_sum(const float* x, size_t n, double (*chunk)(const float*, size_t));

// Zeroed float scratch from the host pool for one call (no heap traffic in a training step).
class ZeroedScratch {
 public:
  explicit ZeroedScratch(size_t n);
  ~ZeroedScratch();
  ZeroedScratch(const ZeroedScratch&) = delete;
  ZeroedScratch& operator=(const ZeroedScratch&) = delete;
  float* get() const { return buf_.get(); }

 private:
  PoolBuffer<float, HostPool> buf_;
};

}  // namespace tf::cpu
