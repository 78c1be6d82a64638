// The flat slabs (optim/flat_slab.hpp): an optimizer's parameters become views of one storage with their
// numbers kept, their gradients land in their homes in one gradient slab (through the ops that write into a
// home and through the engine's copy), zero_grad empties them with one fill, and a step over the slabs
// gives exactly the numbers of steps taken parameter by parameter, also around a step that misses one.
#include <doctest/doctest.h>

#include <vector>

#include "autograd/node.hpp"
#include "ops/ops.hpp"
#include "optim/adam.hpp"
#include "optim/sgd.hpp"

using namespace tf;

namespace {

NamedTensors make_params() {
  return {{"a", Tensor::from_vector({1.f, -2.f, 3.f}, Shape{3})},
          {"w", Tensor::from_vector({0.5f, -1.f, 2.f, 0.25f, 1.5f, -0.75f}, Shape{2, 3})},
          {"b", Tensor::from_vector({0.1f, -0.2f}, Shape{2})}};
}

// loss = sum(a * ca) + sum(linear(x, w, b)) (the linear layer writes w's and b's gradients into their
// homes), without the a term when `with_a` is false (a gets no gradient).
void backward_step(const NamedTensors& p, float t, bool with_a) {
  for (auto [name, tensor] : p) tensor.set_requires_grad(true);
  Tensor x = Tensor::from_vector({t, 1.f, -t, 2.f, 0.5f, t * t}, Shape{2, 3});
  Tensor loss = sum(linear(x, p[1].second, p[2].second));
  if (with_a) loss = add(loss, sum(mul(p[0].second, Tensor::from_vector({t, -1.f, 0.5f}, Shape{3}))));
  loss.backward();
}

}  // namespace

TEST_SUITE("flat_slab") {
  TEST_CASE("the parameters become views of one slab and keep their numbers") {
    NamedTensors p = make_params();
    std::vector<std::vector<float>> before;
    for (const auto& [name, t] : p) before.push_back(t.to_vector());
    Adam opt(p);
    REQUIRE(opt.slab() != nullptr);
    CHECK(opt.slab()->numel() == 3 * FlatSlab::kSlabAlign);
    for (size_t i = 0; i < p.size(); ++i) {
      CHECK(p[i].second.impl()->storage.get() == opt.slab()->params().impl()->storage.get());
      CHECK(p[i].second.impl()->offset == static_cast<int64_t>(i) * FlatSlab::kSlabAlign);
      CHECK(p[i].second.to_vector() == before[i]);
    }
  }

  TEST_CASE("gradients land in their homes, and zero_grad empties the slab with the gradients undefined") {
    NamedTensors p = make_params();
    Adam opt(p);
    backward_step(p, 2.f, true);
    for (const auto& [name, t] : p)
      CHECK(t.grad().impl()->storage.get() == opt.slab()->grads().impl()->storage.get());
    CHECK(p[0].second.grad().to_vector() == std::vector<float>{2.f, -1.f, 0.5f});
    CHECK(p[2].second.grad().to_vector() == std::vector<float>{2.f, 2.f});  // rows of ones summed
    REQUIRE(opt.gradients().size() == 1);
    CHECK(opt.gradients()[0].same(opt.slab()->grads()));
    opt.zero_grad();
    for (const auto& [name, t] : p) CHECK_FALSE(t.grad().defined());
    for (float v : opt.slab()->grads().to_vector()) CHECK(v == 0.f);
    backward_step(p, 3.f, false);  // a has no gradient now, and its home stays zero
    CHECK_FALSE(p[0].second.grad().defined());
    CHECK(p[1].second.grad().defined());
  }

  TEST_CASE("steps over the slab give the numbers of steps parameter by parameter") {
    for (bool adam : {true, false}) {
      INFO((adam ? "Adam" : "SGD with momentum"));
      NamedTensors flat = make_params(), each = make_params();
      FlatSlab::make(each);  // each's parameters become views: its optimizer cannot flatten them again
      auto make = [adam](const NamedTensors& p) -> std::unique_ptr<Optimizer> {
        if (adam) return std::make_unique<Adam>(p, 0.1f, 0.9f, 0.99f, 1e-8f, 0.01f);
        return std::make_unique<Sgd>(p, 0.1f, 0.9f, 0.01f);
      };
      auto a = make(flat), b = make(each);
      REQUIRE(a->slab() != nullptr);
      REQUIRE(b->slab() == nullptr);
      // Step 1 takes a gradient set by hand (not in the slab: parameter by parameter), step 4 misses a (and
      // then a's count lags: parameter by parameter from there); the others go over the slab.
      for (int s = 0; s < 5; ++s) {
        for (Optimizer* o : {a.get(), b.get()}) {
          const NamedTensors& p = o == a.get() ? flat : each;
          o->zero_grad();
          backward_step(p, 1.f + static_cast<float>(s), s != 4);
          if (s == 1) p[0].second.set_grad(Tensor::from_vector({0.5f, 0.25f, -1.f}, Shape{3}));
          o->apply_gradients();
        }
        for (size_t i = 0; i < flat.size(); ++i)
          CHECK(flat[i].second.to_vector() == each[i].second.to_vector());
      }
      OptimizerState sa = a->state(), sb = b->state();
      CHECK(sa.counts == sb.counts);
      REQUIRE(sa.slots.size() == sb.slots.size());
      for (size_t i = 0; i < sa.slots.size(); ++i) {
        CHECK(sa.slots[i].first == sb.slots[i].first);
        CHECK(sa.slots[i].second.to_vector() == sb.slots[i].second.to_vector());
      }
    }
  }
}
