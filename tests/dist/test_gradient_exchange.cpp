// The step's exchange: the flat gradient slab summed in place, or separate gradients and the loss in one
// flat buffer that comes back as the ranks' sums, each in its own tensor. Here the "other rank" holds the
// same numbers (the sum doubles).
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

}  // namespace

TEST_SUITE("gradient_exchange") {
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
