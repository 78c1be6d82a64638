// A recorded step of the graph: the tensors it read and how to turn the gradient of its output into
// gradients of those inputs. The engine (engine.cpp) only walks these; it knows no op.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tensor/tensor.hpp"

namespace tf {

struct Node {
  using BackwardFn = std::function<std::vector<Tensor>(const Tensor& grad_output)>;
  std::string op;                                   // for messages and graph dumps
  std::vector<std::shared_ptr<TensorImpl>> inputs;  // one per backward result; null where none is needed
  BackwardFn backward;
};

// True while gradients are recorded (the default). NoGrad turns recording off for a scope.
bool grad_enabled();
class NoGrad {
 public:
  NoGrad();
  ~NoGrad();
  NoGrad(const NoGrad&) = delete;
  NoGrad& operator=(const NoGrad&) = delete;

 private:
  bool previous_;
};

// Whether an op with these inputs records a node.
bool needs_grad(std::initializer_list<const Tensor*> inputs);

// Attaches a node to `out` when any input requires grad. The backward function must capture only
// detached tensors (Tensor::detach) so the graph holds no cycle through its own outputs.
void record(Tensor& out, const char* op, std::vector<Tensor> inputs, Node::BackwardFn backward);

// The reverse pass (engine.cpp): accumulates d(root)/d(leaf) into every leaf that requires grad.
void run_backward(const Tensor& root, const Tensor& grad_root);

// Inside a backward function: the gradient home of input `input` when that input is a parameter with one
// (optim/flat_slab.hpp) whose gradient is undefined or that home, else an undefined tensor. The function
// may add the input's gradient into it and return it, which the engine then takes as accumulated (no copy).
Tensor gradient_sink(size_t input);

}  // namespace tf
