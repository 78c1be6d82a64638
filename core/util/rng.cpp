#include "util/rng.hpp"

#include <cmath>
#include <cstring>

#include "util/error.hpp"

namespace tf {

namespace {
uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

void Rng::seed_with(uint64_t seed) {
  uint64_t s = seed;
  state_ = splitmix64(s);
  inc_ = splitmix64(s) | 1u;
  has_spare_ = false;
  spare_bits_ = 0;
}

uint32_t Rng::next_u32() {
  uint64_t old = state_;
  state_ = old * 6364136223846793005ull + inc_;
  uint32_t xorshifted = static_cast<uint32_t>(((old >> 18u) ^ old) >> 27u);
  uint32_t rot = static_cast<uint32_t>(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

float Rng::uniform() { return static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f); }

double Rng::uniform_double() {
  uint64_t hi = next_u32() >> 5, lo = next_u32() >> 6;  // 27 + 26 bits
  return static_cast<double>(hi * 67108864ull + lo) * (1.0 / 9007199254740992.0);
}

float Rng::uniform_open() { return static_cast<float>((next_u32() >> 8) + 1) * (1.0f / 16777216.0f); }

int64_t Rng::below(int64_t n) {
  TF_CHECK(n > 0, "Rng::below needs a positive bound, got ", n);
  if (n <= (int64_t{1} << 32)) {
    // Lemire's multiply-shift with rejection: exactly uniform.
    uint64_t bound = static_cast<uint64_t>(n);
    uint64_t m = static_cast<uint64_t>(next_u32()) * bound;
    uint64_t low = m & 0xFFFFFFFFull;
    if (low < bound) {
      uint64_t threshold = ((uint64_t{1} << 32) - bound) % bound;
      while (low < threshold) {
        m = static_cast<uint64_t>(next_u32()) * bound;
        low = m & 0xFFFFFFFFull;
      }
    }
    return static_cast<int64_t>(m >> 32);
  }
  return static_cast<int64_t>(uniform_double() * static_cast<double>(n));
}

float Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    float f;
    uint32_t bits = static_cast<uint32_t>(spare_bits_);
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  double u, v, s;
  do {
    u = 2.0 * uniform_double() - 1.0;
    v = 2.0 * uniform_double() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  double factor = std::sqrt(-2.0 * portable_log(s) / s);
  float spare = static_cast<float>(v * factor);
  uint32_t bits;
  std::memcpy(&bits, &spare, sizeof bits);
  spare_bits_ = bits;
  has_spare_ = true;
  return static_cast<float>(u * factor);
}

int64_t Rng::categorical(const float* w, int64_t n) {
  double total = 0;
  for (int64_t i = 0; i < n; ++i) total += w[i];
  TF_CHECK(n > 0 && total > 0 && std::isfinite(total),
           "categorical: weights must be finite, >= 0, not all zero");
  double target = uniform_double() * total, acc = 0;
  int64_t last = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (w[i] <= 0) continue;
    acc += w[i];
    last = i;
    if (target < acc) return i;
  }
  return last;  // rounding left the target at the very end
}

std::vector<int64_t> Rng::permutation(int64_t n) {
  std::vector<int64_t> p(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) p[static_cast<size_t>(i)] = i;
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(p[static_cast<size_t>(i)], p[static_cast<size_t>(below(i + 1))]);
  return p;
}

void Rng::set_state(const std::vector<uint64_t>& s) {
  TF_CHECK(s.size() == 4, "Rng state needs 4 numbers, got ", s.size());
  state_ = s[0];
  inc_ = s[1] | 1u;
  has_spare_ = s[2] != 0;
  spare_bits_ = s[3];
}

double portable_log(double x) {
  TF_CHECK(x > 0 && std::isfinite(x), "portable_log of ", x);
  int e;
  double m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1): exact
  if (m < 0.7071067811865476) {
    m *= 2;
    --e;
  }
  // log(m) = 2 atanh(z), z = (m - 1) / (m + 1), |z| < 0.172: the series converges fast.
  double z = (m - 1) / (m + 1), z2 = z * z, term = z, series = 0;
  for (int k = 1; k < 40; k += 2) {
    series += term / k;
    term *= z2;
  }
  return 2 * series + e * 0.6931471805599453;
}

}  // namespace tf
