// Reverse-mode engine: order the recorded graph so every tensor comes after everything that used it, then
// hand each node the gradient of its output. Gradients of intermediate tensors are dropped as soon as
// they are used so a step's memory peaks once. A gradient is copied only when it must be: a sum of two
// adds into the first in place when nothing else holds it, a leaf keeps the tensor it was given when
// nothing else holds it, and a parameter's gradient goes into its home in the flat gradient slab, where
// the op that makes it adds it directly when it can (gradient_sink).
#include <unordered_map>
#include <unordered_set>

#include "autograd/node.hpp"
#include "backend/backend.hpp"
#include "profile/profile.hpp"
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

// The one way gradients are summed: g added into `sum` in place (same shape, same device).
void add_into(const Tensor& sum, const Tensor& g) {
  TF_CHECK(sum.shape() == g.shape(), "gradient shape ", g.shape().str(), " does not match ",
           sum.shape().str());
  backend_for(sum.device()).axpy(1.f, g.data(), sum.data(), static_cast<size_t>(sum.numel()));
}

// Whether t's numbers are held by t alone (no other tensor, view or saved copy shares them).
bool exclusive(const Tensor& t) {
  return t.impl_ptr().use_count() == 1 && t.impl()->storage.use_count() == 1;
}

// A tensor's gradient as its users' contributions arrive. The first is kept as given (a node may hand the
// same tensor to several inputs); a second is added into it in place if nothing else holds it, else into
// a private copy, and the rest are added into that.
struct PendingGrad {
  Tensor sum;
  bool owned = false;

  void add(const Tensor& g) {
    if (!sum.defined()) {
      sum = g;
      return;
    }
    if (!owned && !exclusive(sum)) sum = sum.clone();
    owned = true;
    add_into(sum, g);
  }
};

// A leaf keeps its gradient across backward passes: the first goes into its gradient home when it has one,
// else is stored privately (the given tensor itself when nothing else holds it); later ones add in.
void accumulate_leaf(TensorImpl& leaf, PendingGrad& g) {
  if (leaf.grad) {
    add_into(Tensor(leaf.grad), g.sum);
  } else if (leaf.grad_home) {
    Tensor(leaf.grad_home).copy_from(g.sum);
    leaf.grad = leaf.grad_home;
  } else {
    leaf.grad = (g.owned || exclusive(g.sum) ? g.sum : g.sum.clone()).impl_ptr();
  }
}

// The gradient homes a node's backward function may add into (gradient_sink), while it runs.
thread_local const std::vector<Tensor>* t_sinks = nullptr;

std::vector<Tensor> sinks_of(const Node& node) {
  std::vector<Tensor> sinks(node.inputs.size());
  for (size_t i = 0; i < sinks.size(); ++i) {
    TensorImpl* in = node.inputs[i].get();
    if (in && !in->grad_fn && in->requires_grad && in->grad_home && (!in->grad || in->grad == in->grad_home))
      sinks[i] = Tensor(in->grad_home);
  }
  return sinks;
}

// node.backward(g) with its sinks offered; an input whose gradient came back as its sink is accumulated.
std::vector<Tensor> backward_with_sinks(Node& node, const Tensor& g) {
  struct Offer {
    std::vector<Tensor> sinks;
    explicit Offer(const Node& n) : sinks(sinks_of(n)) { t_sinks = &sinks; }
    ~Offer() { t_sinks = nullptr; }
  } offer(node);
  std::vector<Tensor> in_grads = node.backward(g);
  for (size_t i = 0; i < in_grads.size() && i < offer.sinks.size(); ++i) {
    if (!offer.sinks[i].defined() || !in_grads[i].same(offer.sinks[i])) continue;
    node.inputs[i]->grad = node.inputs[i]->grad_home;
    in_grads[i] = Tensor();
  }
  return in_grads;
}

}  // namespace

Tensor gradient_sink(size_t input) {
  return t_sinks && input < t_sinks->size() ? (*t_sinks)[input] : Tensor();
}

void run_backward(const Tensor& root, const Tensor& grad_root) {
  TF_CHECK(root.requires_grad(), "backward() on a tensor that does not require grad");
  TF_CHECK(grad_root.shape() == root.shape(), "the output gradient has shape ", grad_root.shape().str(),
           " but the tensor has ", root.shape().str());
  NoGrad no_grad;  // the backward pass itself is not recorded
  PhaseScope profiled(Phase::Backward);
  std::vector<TensorImpl*> order = topological_order(root.impl());
  std::unordered_map<TensorImpl*, PendingGrad> grads;
  grads[root.impl()].add(grad_root);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    TensorImpl* t = *it;
    auto found = grads.find(t);
    if (found == grads.end()) continue;
    PendingGrad g = std::move(found->second);
    grads.erase(found);
    if (!t->grad_fn) {
      if (t->requires_grad) accumulate_leaf(*t, g);
      continue;
    }
    Node& node = *t->grad_fn;
    std::vector<Tensor> in_grads = backward_with_sinks(node, g.sum);
    TF_CHECK(in_grads.size() == node.inputs.size(), "op ", node.op, " returned ", in_grads.size(),
             " gradients for ", node.inputs.size(), " inputs");
    for (size_t i = 0; i < in_grads.size(); ++i) {
      TensorImpl* in = node.inputs[i].get();
      if (in && in_grads[i].defined()) grads[in].add(in_grads[i]);
    }
  }
}

// Tensor's own entry to the pass lives here, with the engine, so that tensor/ needs nothing from autograd/.
void Tensor::backward() const {
  TF_CHECK(numel() == 1, "backward() without an output gradient needs a scalar, got shape ", shape().str());
  run_backward(*this, Tensor::from_vector({1.f}, shape(), device()));  // an upload: no fill kernel
}

void Tensor::backward(const Tensor& grad_output) const { run_backward(*this, grad_output); }

}  // namespace tf
