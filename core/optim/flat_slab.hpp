// Flat slabs: an optimizer's parameters, their gradients and its per-parameter state (Adam's moments, SGD's
// momentum) each in one storage, every parameter's tensor a view at its own offset (a multiple of
// kSlabAlign floats; the gaps hold zeros). So one kernel call steps every parameter, one sum of squares
// gives the gradient norm, and one collective (a data-parallel allreduce) can sum the gradients of every
// parameter: grads() is that buffer. Each parameter gets a gradient home (TensorImpl::grad_home), its view
// of the gradient slab: the autograd engine accumulates the parameter's gradient there and the ops that
// make parameter gradients write into it (gradient_sink in autograd/node.hpp), so no gradient is copied.
// A home holds zeros while its parameter's grad is undefined; zero_grads() restores that with one fill.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "optim/optimizer_state.hpp"

namespace tf {

class FlatSlab {
 public:
  static constexpr int64_t kSlabAlign = 16;  // floats: 64 bytes, a cache line and a vec4 of every offset

  // The slab of these parameters, their numbers moved into it (each parameter's tensor now a view of it),
  // or null when they cannot share one: different devices, or a parameter that is a view of another tensor.
  static std::unique_ptr<FlatSlab> make(const NamedTensors& params);

  int64_t numel() const { return numel_; }   // the slab's length in floats, the gaps included
  Tensor params() const { return params_; }  // [numel]
  Tensor grads() const { return grads_; }    // [numel]: the gradient homes, contiguous
  // Whether every parameter is still the view this slab made (Module::to would move one out) and its grad
  // is undefined or its home, so that the whole slab stands for the parameters and their gradients.
  bool intact() const;
  // Every gradient home zeroed (one fill) and every parameter's grad undefined.
  void zero_grads() const;
  // A zero-filled slab of the same layout, and parameter i's view of such a slab.
  Tensor new_slab() const;
  Tensor view(const Tensor& slab, size_t i) const;
  // The numbers [begin, end) of a slab, as a view (a data-parallel rank's part).
  static Tensor range(const Tensor& slab, int64_t begin, int64_t end);
  bool is_view(const Tensor& t, const Tensor& slab, size_t i) const;

 private:
  static Tensor view_at(const Tensor& slab, int64_t at, const Shape& shape);
  FlatSlab(const NamedTensors& params, std::vector<int64_t> offsets, int64_t numel);
  std::vector<Tensor> tensors_;   // the parameters
  std::vector<int64_t> offsets_;  // [param]: where each starts in every slab
  int64_t numel_;
  Tensor params_, grads_;
};

}  // namespace tf
