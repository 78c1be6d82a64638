// One seeded generator for everything random (initial weights, batches, masks, sampling). PCG32 with
// integer-only state and a normal sampler built from +, -, *, /, sqrt and a portable log, so a seed gives
// the same stream bit for bit natively and in wasm.
#pragma once
#include <cstdint>
#include <vector>

namespace tf {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { seed_with(seed); }
  void seed_with(uint64_t seed);

  uint32_t next_u32();
  float uniform();           // [0, 1), 24 random bits
  double uniform_double();   // [0, 1), 53 random bits
  float uniform_open();      // (0, 1]
  int64_t below(int64_t n);  // uniform integer in [0, n)
  float normal();            // standard normal (Marsaglia's polar method)
  // An index drawn with probability proportional to weights[i] (weights >= 0, not all zero).
  int64_t categorical(const float* weights, int64_t n);
  int64_t categorical(const std::vector<float>& weights) {
    return categorical(weights.data(), static_cast<int64_t>(weights.size()));
  }
  std::vector<int64_t> permutation(int64_t n);  // Fisher-Yates

  // The full state, for checkpoints (resume gives the same stream).
  std::vector<uint64_t> state() const { return {state_, inc_, has_spare_ ? 1u : 0u, spare_bits_}; }
  void set_state(const std::vector<uint64_t>& s);

 private:
  uint64_t state_ = 0, inc_ = 0;
  bool has_spare_ = false;
  uint64_t spare_bits_ = 0;  // the second normal of a polar pair, as float bits
};

// log(x) for x > 0 from IEEE basic operations only: the same result on every platform (|error| < 2 ulp).
double portable_log(double x);

}  // namespace tf
