// Index-space helpers shared by the ops: shapes right-aligned into the kernels' 4-D space, contiguous and
// broadcast strides, numpy broadcasting, and device-side staging of host ids.
#pragma once
#include <cstdint>
#include <vector>

#include "backend/backend.hpp"
#include "tensor/tensor.hpp"

namespace tf {

Dims4 dims4(const Shape& s);  // right-aligned: (3, 5) -> {1, 1, 3, 5}
Strides4 contiguous_strides(const Dims4& d);
// Strides of an operand of shape `operand` broadcast into `out` (both right-aligned): size-1 dims get 0.
Strides4 broadcast_strides(const Shape& operand, const Dims4& out);
Shape broadcast_shape(const Shape& a, const Shape& b);  // throws when the shapes do not broadcast
// Sums g over the dims along which a tensor of `target` shape was broadcast to g's shape.
Tensor reduce_to_shape(const Tensor& g, const Shape& target);
// A tensor of `shape` whose every element is the one element of the scalar s (stays on the device).
Tensor expand_scalar(const Tensor& s, const Shape& shape);

// Host ids made visible to a backend: the host pointer itself on the CPU, an uploaded copy elsewhere.
class DeviceIds {
 public:
  DeviceIds(const Ids& ids, Device device);
  ~DeviceIds();
  DeviceIds(const DeviceIds&) = delete;
  DeviceIds& operator=(const DeviceIds&) = delete;
  const int32_t* get() const { return ptr_; }

 private:
  Device device_;
  int32_t* owned_ = nullptr;
  size_t bytes_ = 0;
  const int32_t* ptr_ = nullptr;
};

// Where a backward function writes the gradient of its input `input`: that input's gradient home when the
// engine offers one (gradient_sink: add into it), else a new tensor, zero-filled when `zeroed` (for a
// kernel that adds into its output).
struct GradBuffer {
  Tensor t;
  bool accumulate;  // t is a gradient home: add into it
};
GradBuffer grad_buffer(size_t input, const Shape& shape, Device device, bool zeroed);

// Checks every id is in [0, limit) with a clear message naming `what`.
void check_ids(const Ids& ids, int64_t limit, const char* what);
// The embedding backward's index (kernels.hpp): the positions of ids in [0, limit) stably sorted by id (a
// counting sort), or none when no id repeats.
Ids rows_by_id(const Ids& ids, int64_t limit);

inline Backend& backend_of(const Tensor& t) { return backend_for(t.device()); }
inline size_t count(const Tensor& t) { return static_cast<size_t>(t.numel()); }

}  // namespace tf
