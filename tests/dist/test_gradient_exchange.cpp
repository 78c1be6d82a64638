// The step's exchange: the flat gradient slab summed in place, or separate gradients and the loss in one
// flat buffer that comes back as the ranks' sums, each in its own tensor; a step split over the ranks
// updates this rank's part of the parameters and state with the global norm, and the state is gathered
// before it is read. Here the "other rank" holds the same numbers (a sum doubles).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "backend/kernels.hpp"
#include "dist/gradient_exchange.hpp"
#include "ops/ops.hpp"
#include "optim/adam.hpp"
#include "optim/clip_grad.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

class TwinRank : public Communicator {
 public:
  TwinRank() { size_ = 2; }
  void sum(float* data, size_t n, Device) override {
    ++sums;
    numbers = n;
    for (size_t i = 0; i < n; ++i) data[i] *= 2;
  }
  void all_gather(float*, size_t, Device) override { ++gathers; }
  bool any(bool mine) override { return mine; }
  void broadcast(std::string&) override {}
  [[noreturn]] void abort(int) override { throw Error("abort"); }
  int sums = 0, gathers = 0;
  size_t numbers = 0;
};

// a [20] and b [12]: slab offsets 0 and 32 of 48 floats, so rank 0's part [0, 24) holds a and padding.
NamedTensors two_params() {
  std::vector<float> a(20), b(12);
  for (size_t i = 0; i < a.size(); ++i) a[i] = 0.1f * static_cast<float>(i) - 1.f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.5f - 0.05f * static_cast<float>(i);
  return {{"a", Tensor::from_vector(a, Shape{20}).set_requires_grad(true)},
          {"b", Tensor::from_vector(b, Shape{12}).set_requires_grad(true)}};
}

Tensor scale_op(const Tensor& x, float s) { return tf::scale(x, s); }

// The loss sum(scale * p * p) + 1: each gradient is 2 * scale * p.
Tensor backward(Optimizer& opt, float scale) {
  opt.zero_grad();
  Tensor loss = Tensor::scalar(1.f);
  for (const auto& [name, p] : opt.params()) loss = add(loss, sum(mul(scale_op(p, scale), p)));
  loss.backward();
  return loss.detach();
}

void close(const Tensor& a, const Tensor& b) {
  std::vector<float> x = a.to_vector(), y = b.to_vector();
  REQUIRE(x.size() == y.size());
  for (size_t i = 0; i < x.size(); ++i) CHECK(x[i] == doctest::Approx(y[i]).epsilon(1e-6));
}

}  // namespace

TEST_SUITE("gradient_exchange") {
  TEST_CASE("a step split over the ranks updates this rank's part alone, with the global norm and loss") {
    auto twin = std::make_shared<TwinRank>();
    GradientExchange exchange(twin);
    Adam mine(two_params(), 0.01f), whole(two_params(), 0.01f);  // whole: one process, the batch's gradients
    float row[kStepLogWidth], whole_row[kStepLogWidth], inf = std::numeric_limits<float>::infinity();
    CHECK_FALSE(mine.can_step_part());  // the first step makes the state: every rank steps whole
    for (int step = 1; step <= 2; ++step) {
      Tensor loss = backward(mine, 1.f), doubled = backward(whole, 2.f);
      std::vector<float> b_before = mine.params()[1].second.to_vector();
      exchange.step(mine, loss, 1.f, inf, row);
      guard_step(whole.gradients(), Tensor::scalar(loss.item() * 2), 1.f, inf, whole_row);
      whole.apply_gradients(whole_row);
      CHECK(row[kStepLoss] == doctest::Approx(doubled.item() + 1.f));  // summed over the twins: 2 (s + 1)
      close(mine.params()[0].second, whole.params()[0].second);
      if (step == 1) close(mine.params()[1].second, whole.params()[1].second);
      if (step == 2) CHECK(mine.params()[1].second.to_vector() == b_before);  // b: the other rank's part
    }
    CHECK(twin->gathers == 1);  // the parameters of the split step
    // The norm: this part's squares, summed over the twins (the other part is the other rank's).
    double squares = 0;
    std::vector<float> grads = mine.gradients()[0].to_vector();
    for (size_t i = 0; i < 24; ++i) squares += static_cast<double>(grads[i]) * grads[i];
    CHECK(row[kStepNorm] == doctest::Approx(std::sqrt(2 * squares)).epsilon(1e-5));
    exchange.gather_state(mine);
    exchange.gather_state(mine);
    CHECK(twin->gathers == 3);  // Adam's two moments, once
  }

  TEST_CASE("gradients not in a slab and the loss are summed in one exchange and land back in place") {
    auto twin = std::make_shared<TwinRank>();
    GradientExchange exchange(twin);
    std::vector<Tensor> grads = {Tensor::from_vector({1, 2, 3}, Shape{3}),
                                 Tensor::from_vector({-4, 0.5f}, Shape{2})};
    Tensor loss = Tensor::scalar(0.25f);
    for (int step = 1; step <= 2; ++step) {  // the flat buffer is kept for the next step
      exchange.sum(grads, loss);
      CHECK(twin->sums == step);
      CHECK(twin->numbers == 6);  // 3 + 2 gradient numbers and the loss
    }
    CHECK(grads[0].to_vector() == std::vector<float>{4, 8, 12});
    CHECK(grads[1].to_vector() == std::vector<float>{-16, 2});
    CHECK(loss.item() == 1.f);
  }

  TEST_CASE("the flat gradient slab is summed where it lies, then the loss") {
    auto twin = std::make_shared<TwinRank>();
    GradientExchange exchange(twin);
    Tensor slab = Tensor::from_vector({1, 2, 0, -3}, Shape{4}), loss = Tensor::scalar(0.5f);
    const float* where = slab.data();
    exchange.sum({slab}, loss);
    CHECK(twin->sums == 2);
    CHECK(twin->numbers == 1);  // the last exchange: the loss
    CHECK(slab.data() == where);
    CHECK(slab.to_vector() == std::vector<float>{2, 4, 0, -6});
    CHECK(loss.item() == 1.f);
  }

  TEST_CASE("one process is its own sum, and no launcher means one process") {
    std::shared_ptr<Communicator> ranks = join_ranks(Device::CPU);
    CHECK(ranks->size() == 1);
    CHECK(ranks->rank() == 0);
    std::vector<float> x{1, 2};
    ranks->sum(x.data(), x.size(), Device::CPU);
    CHECK(x == std::vector<float>{1, 2});
    CHECK(ranks->any(true));
    CHECK_FALSE(ranks->any(false));
  }
}
