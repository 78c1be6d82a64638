// What the fuzz targets share: FUZZ_CHECK, an invariant that must hold for every input (a broken one aborts
// with a message, which libFuzzer records as a crash with the input that caused it), and a bitwise float
// comparison (NaN payloads included) for round trips.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define FUZZ_CHECK(cond, message)                                                                            \
  do {                                                                                                       \
    if (!(cond)) {                                                                                           \
      std::fprintf(stderr, "fuzz invariant broken at %s:%d: %s (%s)\n", __FILE__, __LINE__, message, #cond); \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)

namespace tf::fuzz {

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

}  // namespace tf::fuzz
