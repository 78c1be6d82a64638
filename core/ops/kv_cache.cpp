// cache_append: the key/value cache's one write. New rows are copied into the cache's storage in place by
// the backend's strided copy, and the filled part comes back as a view, so a cached decoding step copies
// only the new positions. Caches hold numbers for inference, so nothing here is recorded for autograd.
#include <memory>

#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

Tensor cache_append(const Tensor& cache, int64_t filled, const Cols& rows) {
  TF_CHECK(cache.ndim() == 3 && cache.size(0) == 1, "cache_append: the cache must be [1, capacity, C], got ",
           cache.shape().str());
  TF_CHECK(!cache.requires_grad(), "cache_append: a cache is written in place and must not require grad");
  const Tensor& src = rows.t;
  TF_CHECK(src.ndim() == 3 && src.size(0) == 1, "cache_append: the new rows must be [1, T, width], got ",
           src.shape().str());
  TF_CHECK(src.device() == cache.device(), "cache_append: the rows and the cache are on different devices");
  const int64_t C = cache.size(2), T = src.size(1), capacity = cache.size(1), width = rows.columns();
  TF_CHECK(width == C, "cache_append: ", width, " columns for a cache of width ", C);
  TF_CHECK(rows.offset >= 0 && rows.offset + width <= src.size(2), "cache_append: columns [", rows.offset,
           ", ", rows.offset + width, ") are outside the rows' width ", src.size(2));
  TF_CHECK(filled >= 0 && filled + T <= capacity, "cache_append: the cache holds ", capacity, " positions; ",
           filled + T, " asked for");
  if (T > 0) {
    Strides4 from{0, 0, src.size(2), 1}, to{0, 0, C, 1};
    backend_of(cache).copy_strided(src.data() + rows.offset, from, cache.data() + filled * C, to,
                                   Dims4{{1, 1, T, C}}, false);
  }
  auto view = std::make_shared<TensorImpl>();
  view->storage = cache.impl()->storage;
  view->offset = cache.impl()->offset;
  view->shape = Shape{1, filled + T, C};
  return Tensor(view);
}

}  // namespace tf
