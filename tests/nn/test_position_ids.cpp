// position_ids: the rows that look up a learned position table, from 0 or from a KV cache's offset.
#include <doctest/doctest.h>

#include "nn/position_ids.hpp"

using namespace tf;

TEST_SUITE("position_ids") {
  TEST_CASE("counts up from the start as one row") {
    Ids p = position_ids(4, 3);
    CHECK(p.shape == Shape{4});
    CHECK(p.data == std::vector<int32_t>{3, 4, 5, 6});
    CHECK(position_ids(2).data == std::vector<int32_t>{0, 1});
    CHECK(position_ids(0).numel() == 0);
  }
}
