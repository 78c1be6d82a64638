// The step's one exchange: every defined gradient and the loss go out in one flat buffer and come back as
// the ranks' sums, each in its own tensor. Here the "other rank" holds the same numbers (the sum doubles).
#include <doctest/doctest.h>

#include "dist/gradient_exchange.hpp"
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
  bool any(bool mine) override { return mine; }
  void broadcast(std::string&) override {}
  [[noreturn]] void abort(int) override { throw Error("abort"); }
  int sums = 0;
  size_t numbers = 0;
};

Tensor parameter_with_grad(std::vector<float> grad) {
  Tensor p = Tensor::zeros(Shape{static_cast<int64_t>(grad.size())});
  p.set_requires_grad(true);
  if (!grad.empty()) p.set_grad(Tensor::from_vector(grad, Shape{static_cast<int64_t>(grad.size())}));
  return p;
}

}  // namespace

TEST_SUITE("gradient_exchange") {
  TEST_CASE("every gradient and the loss are summed in one exchange and land back in place") {
    auto twin = std::make_shared<TwinRank>();
    GradientExchange exchange(twin);
    std::vector<std::pair<std::string, Tensor>> params = {{"a", parameter_with_grad({1, 2, 3})},
                                                          {"none", parameter_with_grad({})},
                                                          {"b", parameter_with_grad({-4, 0.5f})}};
    Tensor loss = Tensor::scalar(0.25f);
    for (int step = 1; step <= 2; ++step) {  // the flat buffer is kept for the next step
      exchange.sum(params, loss);
      CHECK(twin->sums == step);
      CHECK(twin->numbers == 6);  // 3 + 2 gradient numbers and the loss
    }
    CHECK(params[0].second.grad().to_vector() == std::vector<float>{4, 8, 12});
    CHECK_FALSE(params[1].second.grad().defined());
    CHECK(params[2].second.grad().to_vector() == std::vector<float>{-16, 2});
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
