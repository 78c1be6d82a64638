// The WebGPU arena's allocator, natively: aligned offsets inside the capacity, best fit, freed neighbours
// merged back into one range, a clear answer when nothing fits, and growth that moves nothing.
#include <doctest/doctest.h>

#include <limits>
#include <vector>

#include "backend/arena_allocator.hpp"

using namespace tf;

TEST_SUITE("arena_allocator") {
  TEST_CASE("offsets are aligned, disjoint and inside the capacity") {
    ArenaAllocator arena(64 * 1024);
    std::vector<std::pair<size_t, size_t>> ranges;
    for (size_t bytes : {1, 4, 255, 256, 257, 1000, 4096}) {
      auto at = arena.allocate(bytes);
      REQUIRE(at.has_value());
      CHECK(*at % ArenaAllocator::kAlignment == 0);
      CHECK(*at + ArenaAllocator::rounded(bytes) <= arena.capacity());
      for (const auto& [o, n] : ranges) CHECK((*at + ArenaAllocator::rounded(bytes) <= o || o + n <= *at));
      ranges.push_back({*at, ArenaAllocator::rounded(bytes)});
    }
    CHECK(arena.live_bytes() == 256 * 4 + 512 + 1024 + 4096);
  }

  TEST_CASE("freed neighbours merge, so the whole arena is one range again") {
    ArenaAllocator arena(16 * 256);
    auto a = arena.allocate(4 * 256), b = arena.allocate(4 * 256), c = arena.allocate(8 * 256);
    REQUIRE((a && b && c));
    CHECK_FALSE(arena.allocate(1).has_value());  // full
    arena.deallocate(*a, 4 * 256);
    arena.deallocate(*c, 8 * 256);
    CHECK(arena.largest_free() == 8 * 256);
    arena.deallocate(*b, 4 * 256);  // joins both sides
    CHECK(arena.largest_free() == 16 * 256);
    CHECK(arena.live_bytes() == 0);
    CHECK(arena.allocate(16 * 256) == std::optional<size_t>(0));
  }

  TEST_CASE("the smallest free range that fits is used") {
    ArenaAllocator arena(32 * 256);
    auto big = arena.allocate(8 * 256), keep1 = arena.allocate(256), small = arena.allocate(2 * 256),
         keep2 = arena.allocate(256);
    REQUIRE((big && keep1 && small && keep2));
    arena.deallocate(*big, 8 * 256);
    arena.deallocate(*small, 2 * 256);
    CHECK(arena.allocate(2 * 256) == small);
    CHECK(arena.allocate(8 * 256) == big);
  }

  TEST_CASE("growing adds the new tail to the free range before it; held ranges stay where they are") {
    ArenaAllocator arena(8 * 256);
    auto a = arena.allocate(4 * 256), b = arena.allocate(2 * 256);
    REQUIRE((a && b));
    CHECK_FALSE(arena.allocate(4 * 256).has_value());
    arena.grow(16 * 256);
    CHECK(arena.capacity() == 16 * 256);
    CHECK(arena.live_bytes() == 6 * 256);
    CHECK(arena.largest_free() == 10 * 256);  // 2 free units before the old end, 8 new ones
    CHECK(arena.allocate(10 * 256) == std::optional<size_t>(6 * 256));
    arena.deallocate(*a, 4 * 256);
    arena.deallocate(*b, 2 * 256);
    CHECK(arena.live_bytes() == 10 * 256);
    CHECK_THROWS(arena.grow(8 * 256));                                            // it never shrinks
    CHECK_FALSE(arena.allocate(std::numeric_limits<size_t>::max()).has_value());  // rounding up must not wrap
  }

  TEST_CASE("freeing a range twice or outside the arena is an error") {
    ArenaAllocator arena(8 * 256);
    auto a = arena.allocate(256);
    REQUIRE(a);
    arena.deallocate(*a, 256);
    CHECK_THROWS(arena.deallocate(*a, 256));
    CHECK_THROWS(arena.deallocate(64 * 256, 256));
  }
}
