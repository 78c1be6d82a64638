// The step guard's numbers, by hand, on the reference and every backend under test: the norm, the keep flag
// and torch's clip factor; and the optimizer kernels obeying a guard row in device memory (a skip leaves
// parameters and moments bitwise untouched, a clip factor scales the gradient first).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "backend/backend.hpp"
#include "support/backends.hpp"

using namespace tf;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

std::vector<Backend*> all_backends() {
  std::vector<Backend*> out{&reference_backend()};
  for (const test::BackendUnderTest& b : test::backends_under_test()) out.push_back(b.backend);
  return out;
}

// A device copy of host numbers, freed with the object.
class DeviceFloats {
 public:
  DeviceFloats(Backend& be, const std::vector<float>& v) : be_(be), n_(std::max<size_t>(v.size(), 1)) {
    p_ = static_cast<float*>(be_.allocate(n_ * sizeof(float)));
    be_.copy_from_host(p_, v.data(), v.size() * sizeof(float));
  }
  ~DeviceFloats() { be_.deallocate(p_, n_ * sizeof(float)); }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  float* get() const { return p_; }
  std::vector<float> read(size_t n) const {
    std::vector<float> v(n);
    be_.synchronize();
    be_.copy_to_host(v.data(), p_, n * sizeof(float));
    return v;
  }

 private:
  Backend& be_;
  size_t n_;
  float* p_;
};

std::vector<float> guard(Backend& be, const std::vector<float>& squares, float loss, float report_scale,
                         float max_norm) {
  DeviceFloats sq(be, squares), l(be, {loss}), row(be, std::vector<float>(kStepLogWidth, -1.f));
  be.step_guard(sq.get(), squares.size(), l.get(), report_scale, max_norm, row.get());
  return row.read(kStepLogWidth);
}

}  // namespace

TEST_SUITE("step_guard") {
  TEST_CASE("the row holds the reported loss, the global norm, keep and the clip factor") {
    for (Backend* be : all_backends()) {
      INFO("backend ", be->name());
      std::vector<float> r = guard(*be, {9.f, 16.f}, 2.f, 0.5f, 1.f);  // norm 5 > max_norm 1: clipped
      CHECK(r[kStepLoss] == 1.f);
      CHECK(r[kStepNorm] == 5.f);
      CHECK(r[kStepKeep] == 1.f);
      CHECK(r[kStepCoef] == 1.f / (5.f + 1e-6f));
      r = guard(*be, {9.f, 16.f}, 2.f, 1.f, 10.f);  // under max_norm: factor 1
      CHECK(r[kStepCoef] == 1.f);
      r = guard(*be, {9.f, 16.f}, 2.f, 1.f, kInf);  // no clipping
      CHECK(r[kStepCoef] == 1.f);
      r = guard(*be, {}, 2.f, 1.f, 1.f);  // no gradients: norm 0, kept
      CHECK(r[kStepNorm] == 0.f);
      CHECK(r[kStepKeep] == 1.f);
      CHECK(r[kStepCoef] == 1.f);
    }
  }

  TEST_CASE("a non-finite loss or norm clears keep and leaves the factor at 1") {
    for (Backend* be : all_backends()) {
      INFO("backend ", be->name());
      std::vector<float> r = guard(*be, {9.f, 16.f}, kNaN, 1.f, 1.f);
      CHECK(std::isnan(r[kStepLoss]));
      CHECK(std::isnan(r[kStepNorm]));  // not worked out from gradients of a non-finite loss
      CHECK(r[kStepKeep] == 0.f);
      CHECK(r[kStepCoef] == 1.f);
      r = guard(*be, {9.f, kInf}, 2.f, 1.f, 1.f);
      CHECK(r[kStepLoss] == 2.f);
      CHECK(std::isinf(r[kStepNorm]));
      CHECK(r[kStepKeep] == 0.f);
      CHECK(r[kStepCoef] == 1.f);
      r = guard(*be, {3e38f, 3e38f}, 2.f, 1.f, kInf);  // added in double: no overflow on the way
      CHECK(r[kStepNorm] == static_cast<float>(std::sqrt(6e38)));
      CHECK(r[kStepKeep] == 1.f);
    }
  }

  TEST_CASE("the optimizer kernels skip on a cleared keep flag and scale by the factor otherwise") {
    std::vector<float> p0{0.5f, -1.f, 2.f}, g{0.3f, -0.2f, 4.f}, m0{0.1f, 0.f, -0.1f}, v0{0.01f, 0.02f, 0.f};
    for (Backend* be : all_backends()) {
      INFO("backend ", be->name());
      std::vector<float> skip(kStepLogWidth, 0.f), clip(kStepLogWidth, 0.f);
      skip[kStepCoef] = 0.25f;  // ignored: keep is 0
      clip[kStepKeep] = 1.f;
      clip[kStepCoef] = 0.25f;
      DeviceFloats p(*be, p0), grad(*be, g), m(*be, m0), v(*be, v0), row(*be, skip);
      AdamArgs a;
      a.guard = row.get();
      be->adam_step(p.get(), grad.get(), m.get(), v.get(), 3, a);
      CHECK(p.read(3) == p0);
      CHECK(m.read(3) == m0);
      CHECK(v.read(3) == v0);
      SgdArgs s;
      s.momentum = 0.9f;
      s.guard = row.get();
      be->sgd_step(p.get(), grad.get(), m.get(), 3, s);
      CHECK(p.read(3) == p0);
      CHECK(m.read(3) == m0);

      // With the factor: the same as an unguarded step on gradients scaled by it.
      std::vector<float> scaled{0.3f * 0.25f, -0.2f * 0.25f, 4.f * 0.25f};
      DeviceFloats clip_row(*be, clip), p2(*be, p0), g2(*be, scaled), m2(*be, m0), v2(*be, v0);
      a.guard = clip_row.get();
      be->adam_step(p.get(), grad.get(), m.get(), v.get(), 3, a);
      a.guard = nullptr;
      be->adam_step(p2.get(), g2.get(), m2.get(), v2.get(), 3, a);
      CHECK(p.read(3) == p2.read(3));
      CHECK(m.read(3) == m2.read(3));
      CHECK(v.read(3) == v2.read(3));
      CHECK(p.read(3) != p0);
    }
  }
}
