// Reverse-mode engine: order the recorded graph so every tensor comes after everything that used it, then
// hand each node the gradient of its output. Gradients of intermediate tensors are dropped as soon as
// they are used so a step's memory peaks once.
#include <unordered_map>
#include <unordered_set>

#include "autograd/node.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

// Post-order of the graph below root (inputs before the tensors made from them), iteratively.
std::vector<TensorImpl*> topological_order(TensorImpl* root) {
  std::vector<TensorImpl*> order;
  std::unordered_set<TensorImpl*> seen{root};
  std::vector<std::pair<TensorImpl*, size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto& [t, next] = stack.back();
    Node* node = t->grad_fn.get();
    if (node && next < node->inputs.size()) {
      TensorImpl* in = node->inputs[next++].get();
      if (in && seen.insert(in).second) stack.push_back({in, 0});
      continue;
    }
    order.push_back(t);
    stack.pop_back();
  }
  return order;
}

void accumulate(std::shared_ptr<TensorImpl>& slot, const Tensor& g) {
  if (!slot) {
    slot = g.clone().impl_ptr();
    return;
  }
  Tensor acc(slot);
  TF_CHECK(acc.shape() == g.shape(), "gradient shape ", g.shape().str(), " does not match ",
           acc.shape().str());
  backend_for(acc.device()).axpy(1.f, g.data(), acc.data(), static_cast<size_t>(acc.numel()));
}

}  // namespace

void run_backward(const Tensor& root, const Tensor& grad_root) {
  TF_CHECK(root.requires_grad(), "backward() on a tensor that does not require grad");
  TF_CHECK(grad_root.shape() == root.shape(), "the output gradient has shape ", grad_root.shape().str(),
           " but the tensor has ", root.shape().str());
  NoGrad no_grad;  // the backward pass itself is not recorded
  std::vector<TensorImpl*> order = topological_order(root.impl());
  std::unordered_map<TensorImpl*, Tensor> grads;
  grads[root.impl()] = grad_root;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    TensorImpl* t = *it;
    auto found = grads.find(t);
    if (found == grads.end()) continue;
    Tensor g = std::move(found->second);
    grads.erase(found);
    if (!t->grad_fn) {
      if (t->requires_grad) accumulate(t->grad, g);
      continue;
    }
    Node& node = *t->grad_fn;
    std::vector<Tensor> in_grads = node.backward(g);
    TF_CHECK(in_grads.size() == node.inputs.size(), "op ", node.op, " returned ", in_grads.size(),
             " gradients for ", node.inputs.size(), " inputs");
    for (size_t i = 0; i < in_grads.size(); ++i) {
      TensorImpl* in = node.inputs[i].get();
      if (!in || !in_grads[i].defined()) continue;
      auto slot = grads.find(in);
      if (slot == grads.end()) {
        grads.emplace(in, in_grads[i]);
      } else {
        slot->second = add(slot->second, in_grads[i]);
      }
    }
  }
}

}  // namespace tf
