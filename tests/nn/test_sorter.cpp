#include <doctest/doctest.h>

#include "nn/sorter.hpp"

using namespace tf;

TEST_SUITE("sorter") {
  TEST_CASE("page 000's sorter has PyTorch's 235,851 parameters") {
    Rng rng(0);
    Sorter net(ModelConfig::sorter(), rng);
    CHECK(net.parameter_count() == 235851);
  }

  TEST_CASE("forward gives (B, T, 11) logits and greedy decoding gives B x 10 digits") {
    Rng rng(1);
    Sorter net(ModelConfig::sorter(), rng);
    Ids src({7, 2, 9, 0, 4, 4, 1, 8, 3, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, Shape{2, 10});
    Ids tgt_in({10, 0, 1, 2, 3, 4, 4, 6, 7, 8, 10, 1, 1, 1, 1, 1, 1, 1, 1, 1}, Shape{2, 10});
    CHECK(net.forward(src, tgt_in).shape() == Shape({2, 10, 11}));
    Ids out = net.greedy(src, 10);
    CHECK(out.shape == Shape({2, 10}));
    CHECK(net.encoder_attention().size() == 2);
    CHECK(net.decoder_cross_attention()[0].shape() == Shape({2, 4, 10, 10}));
  }
}
