// Embedding lookup: rows of a table picked by ids; the backward pass scatter-adds into the table's grad
// (its gradient home when it has one). The ids uploaded for the forward pass stay for the backward pass.
#include <memory>

#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

Tensor embedding(const Tensor& table, const Ids& ids) {
  TF_CHECK(table.ndim() == 2, "embedding: table must be [V, C], got ", table.shape().str());
  TF_CHECK(ids.shape.ndim() < kMaxDims, "embedding: ids have too many dims for one more");
  check_ids(ids, table.size(0), "embedding");
  int64_t C = table.size(1), n = ids.numel();
  std::vector<int64_t> dims = ids.shape.dims();
  dims.push_back(C);
  Tensor out = Tensor::empty(Shape(dims), table.device());
  struct KeptIds {  // the ids and their copy on the device, as long as the graph holds them
    Ids ids;
    DeviceIds dev;
    KeptIds(const Ids& i, Device d) : ids(i), dev(ids, d) {}
  };
  auto kept = std::make_shared<KeptIds>(ids, table.device());
  if (n > 0) backend_of(table).embedding_forward(table.data(), kept->dev.get(), out.data(), n, C);
  Shape ts = table.shape();
  record(out, "embedding", {table}, [kept, ts, n, C](const Tensor& g) -> std::vector<Tensor> {
    GradBuffer dtable = grad_buffer(0, ts, g.device(), true);
    Ids sorted = rows_by_id(kept->ids, ts[0]);  // empty when no id repeats
    DeviceIds by_id(sorted, g.device());
    if (n > 0)
      backend_of(g).embedding_backward(g.data(), kept->dev.get(), sorted.numel() ? by_id.get() : nullptr,
                                       dtable.t.data(), n, C);
    return {dtable.t};
  });
  return out;
}

Tensor pick_rows(const Tensor& x, const Ids& rows) {
  return embedding(reshape(x, Shape{x.shape().rows(), x.size(-1)}), rows);
}

}  // namespace tf
