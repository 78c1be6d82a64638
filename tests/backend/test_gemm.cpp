// The GEMM of every backend under test against the reference kernel: shapes around the micro-tile and cache
// block edges of each instruction set, all four transposes, padded leading dimensions, batches with a shared
// operand, alpha and beta, a bias row in C's place. The tolerance is the worst-case bound of float summation,
// (K + 2) u sum|terms|, so it never fails by luck and a wrong element is far outside it. CPU results must not
// depend on threads.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "backend/reference/kernels.hpp"
#include "support/backends.hpp"
#include "util/rng.hpp"

using namespace tf;

namespace {

struct GemmCase {
  int batch, M, N, K;
  bool trans_a, trans_b;
  float alpha = 1.f, beta = 0.f;
  bool shared_a = false, shared_b = false;
  bool bias = false;    // beta scales a bias row [N] instead of C
  bool packed = false;  // leading dimensions and batch strides at their minimum (else padded past it)
};

// Operands for a case: leading dimensions and batch strides padded past their minimum (so none is a multiple
// of 4: WebGPU's scalar loads), or packed (WebGPU loads vec4 along each operand whose row length is one).
struct GemmData {
  GemmArgs g;  // g.bias is left null: run_gemm and with_bias point it at their copy of `bias`
  std::vector<float> a, b, c, bias;  // c holds the initial C
};

GemmData make_data(const GemmCase& t, uint64_t seed) {
  GemmData d;
  GemmArgs& g = d.g;
  g.batch = t.batch, g.M = t.M, g.N = t.N, g.K = t.K, g.trans_a = t.trans_a, g.trans_b = t.trans_b;
  g.alpha = t.alpha, g.beta = t.beta;
  int64_t a_rows = t.trans_a ? t.K : t.M, a_cols = t.trans_a ? t.M : t.K;
  int64_t b_rows = t.trans_b ? t.N : t.K, b_cols = t.trans_b ? t.K : t.N;
  int pad = t.packed ? 0 : 1;
  g.lda = a_cols + 3 * pad, g.ldb = b_cols + pad, g.ldc = t.N + 2 * pad;
  g.stride_a = t.shared_a ? 0 : a_rows * g.lda + 5 * pad;
  g.stride_b = t.shared_b ? 0 : b_rows * g.ldb + 7 * pad;
  g.stride_c = t.M * g.ldc + pad;
  Rng rng(seed);
  auto fill = [&](std::vector<float>& v, int64_t n) {
    v.resize(static_cast<size_t>(n));
    for (float& x : v) x = 2.f * rng.uniform() - 1.f;
  };
  fill(d.a, (t.shared_a ? 1 : t.batch) * std::max<int64_t>(g.stride_a, a_rows * g.lda));
  fill(d.b, (t.shared_b ? 1 : t.batch) * std::max<int64_t>(g.stride_b, b_rows * g.ldb));
  fill(d.c, t.batch * g.stride_c);
  if (t.bias) fill(d.bias, t.N);
  return d;
}

GemmArgs with_bias(GemmArgs g, const std::vector<float>& bias) {
  g.bias = bias.empty() ? nullptr : bias.data();
  return g;
}

// Runs the backend's GEMM through its own memory, so a device backend is held to the same cases.
std::vector<float> run_gemm(Backend& be, GemmArgs g, const std::vector<float>& a, const std::vector<float>& b,
                            const std::vector<float>& c, const std::vector<float>& bias = {}) {
  auto upload = [&](const std::vector<float>& v) {
    float* p = static_cast<float*>(be.allocate(std::max<size_t>(v.size(), 1) * sizeof(float)));
    be.copy_from_host(p, v.data(), v.size() * sizeof(float));
    return p;
  };
  float *da = upload(a), *db = upload(b), *dc = upload(c), *dbias = upload(bias);
  g.bias = bias.empty() ? nullptr : dbias;
  be.gemm(g, da, db, dc);
  be.synchronize();
  std::vector<float> out(c.size());
  be.copy_to_host(out.data(), dc, c.size() * sizeof(float));
  be.deallocate(da, std::max<size_t>(a.size(), 1) * sizeof(float));
  be.deallocate(db, std::max<size_t>(b.size(), 1) * sizeof(float));
  be.deallocate(dc, std::max<size_t>(c.size(), 1) * sizeof(float));
  be.deallocate(dbias, std::max<size_t>(bias.size(), 1) * sizeof(float));
  return out;
}

std::vector<float> abs_of(const std::vector<float>& v) {
  std::vector<float> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = std::fabs(v[i]);
  return out;
}

std::string describe(const std::string& backend, const GemmCase& t) {
  return backend + " batch=" + std::to_string(t.batch) + " M=" + std::to_string(t.M) +
         " N=" + std::to_string(t.N) + " K=" + std::to_string(t.K) + (t.trans_a ? " A^T" : "") +
         (t.trans_b ? " B^T" : "") + " alpha=" + std::to_string(t.alpha) + " beta=" + std::to_string(t.beta) +
         (t.shared_a ? " shared A" : "") + (t.shared_b ? " shared B" : "") + (t.bias ? " bias" : "") +
         (t.packed ? " packed" : "");
}

// Every backend under test agrees with the reference within the summation bound; padding stays untouched.
void check_case(const GemmCase& t, uint64_t seed) {
  GemmData d = make_data(t, seed);
  std::vector<float> want = d.c;
  ref::gemm(with_bias(d.g, d.bias), d.a.data(), d.b.data(), want.data());
  std::vector<float> abs_bias = abs_of(d.bias);
  GemmArgs bound_args =
      with_bias(d.g, abs_bias);  // |alpha| sum |a||b| + |beta||c|: what rounding scales with
  bound_args.alpha = std::fabs(d.g.alpha), bound_args.beta = std::fabs(d.g.beta);
  std::vector<float> bound = abs_of(d.c);
  ref::gemm(bound_args, abs_of(d.a).data(), abs_of(d.b).data(), bound.data());
  const double u = std::numeric_limits<float>::epsilon();
  for (const test::BackendUnderTest& be : test::backends_under_test()) {
    std::vector<float> got = run_gemm(*be.backend, d.g, d.a, d.b, d.c, d.bias);
    int bad = 0;
    size_t first_bad = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      double tol = (t.K + 2) * u * bound[i] + 1e-30;
      if (!(std::fabs(double(got[i]) - want[i]) <= tol) && bad++ == 0) first_bad = i;
    }
    INFO(describe(be.name, t), ": first bad index ", first_bad, " got ", got[first_bad], " want ",
         want[first_bad]);
    CHECK(bad == 0);
  }
}

// M, N around the micro-tiles of every ISA (MR 5, 6, 14; NR 8..32), K around the 4-wide packing blocks.
const int kEdgeM[] = {1, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 29};
const int kEdgeN[] = {1, 7, 8, 9, 16, 17, 31, 32, 33};
const int kEdgeK[] = {1, 2, 5, 16};

}  // namespace

TEST_SUITE("gemm") {
  TEST_CASE("one by one by one") {
    for (bool ta : {false, true})
      for (bool tb : {false, true}) check_case({1, 1, 1, 1, ta, tb, 1.5f, 0.f}, 1);
  }

  TEST_CASE("sizes around the micro-tile edges, all transposes") {
    uint64_t seed = 10;
    for (int M : kEdgeM)
      for (int N : kEdgeN)
        for (int K : kEdgeK)
          for (int tr = 0; tr < 4; ++tr) check_case({1, M, N, K, (tr & 1) != 0, (tr & 2) != 0}, seed++);
  }

  TEST_CASE("sizes around the cache blocks") {
    uint64_t seed = 100;
    for (int K : {127, 128, 129, 255, 256, 257, 300, 511, 512, 513})  // K blocks (KC = 256, 512 for 4 lanes)
      for (int tr = 0; tr < 4; ++tr) check_case({1, 19, 35, K, (tr & 1) != 0, (tr & 2) != 0}, seed++);
    for (int M : {143, 144, 145, 167, 168, 169, 337})  // M blocks (MC = 144 or 168)
      for (int tr = 0; tr < 4; ++tr) check_case({1, M, 17, 9, (tr & 1) != 0, (tr & 2) != 0}, seed++);
    for (int N : {2047, 2049})  // N blocks (NC = 2048)
      check_case({1, 15, N, 20, false, true}, seed++);
  }

  TEST_CASE("alpha and beta scale the product and the old C") {
    uint64_t seed = 200;
    for (float alpha : {1.f, -0.5f, 0.f})
      for (float beta : {0.f, 1.f, 0.75f})
        for (int tr = 0; tr < 4; ++tr) {
          bool ta = (tr & 1) != 0, tb = (tr & 2) != 0;
          check_case({1, 23, 41, 300, ta, tb, alpha, beta}, seed++);
          GemmCase packed{1, 24, 40, 300, ta, tb, alpha, beta, false, false, false, true};
          check_case(packed, seed++);  // vec4, tiles of 16
          packed.batch = 16, packed.M = 68, packed.N = 72, packed.K = 16;
          check_case(packed, seed++);  // vec4, tiles of 64
        }
  }

  // WebGPU picks its variant per call: vec4 loads along each operand whose rows are 16-byte aligned and a
  // multiple of 4 long (scalar loads for the others), and C tiles of 64, or of 32 or 16 (K split among the
  // workgroup's invocations) where a product has fewer than 64 tiles of 64 and K fills a round (32, 64).
  // These shapes, off the tile and vector sizes, take each combination.
  TEST_CASE("packed operands, at every tile size") {
    uint64_t seed = 700;
    const GemmCase cases[] = {
        {1, 68, 132, 40},   // 32 (K too short for 16), every operand vec4
        {1, 130, 72, 300},  // 16, M off 4: A^T scalar
        {1, 36, 45, 260},   // 16, N off 4: B and C scalar
        {1, 33, 20, 97},    // 16, K odd: A and B^T scalar
        {1, 260, 252, 68},  // 32, every operand vec4, K over three rounds of 32
        {6, 70, 100, 36},   // 32 over a batch, M off 4
        {1, 520, 516, 24},  // 64, every operand vec4
        {17, 65, 70, 36},   // 64 over a batch, M and N off 4
        {3, 40, 44, 200},   // 16 over a batch
    };
    for (GemmCase t : cases)
      for (int tr = 0; tr < 4; ++tr) {
        t.trans_a = (tr & 1) != 0, t.trans_b = (tr & 2) != 0, t.packed = true;
        check_case(t, seed++);
      }
  }

  TEST_CASE("batches with their own or a shared operand") {
    uint64_t seed = 300;
    for (int tr = 0; tr < 4; ++tr) {
      bool ta = (tr & 1) != 0, tb = (tr & 2) != 0;
      check_case({3, 17, 21, 13, ta, tb, 1.f, 0.5f}, seed++);
      check_case({3, 17, 21, 13, ta, tb, 1.f, 0.f, false, true}, seed++);
      check_case({4, 30, 9, 40, ta, tb, 2.f, 1.f, true, false}, seed++);
      check_case({5, 50, 70, 60, ta, tb, 1.f, 0.f, false, true}, seed++);
    }
  }

  TEST_CASE("K == 0 leaves beta times C; empty M or N touches nothing") {
    check_case({2, 5, 7, 0, false, false, 1.f, 0.5f}, 400);
    check_case({2, 5, 7, 0, true, true, 1.f, 0.f}, 401);
    check_case({1, 0, 7, 5, false, false, 1.f, 0.5f}, 402);
    check_case({1, 5, 0, 5, false, true, 1.f, 0.f}, 403);
  }

  TEST_CASE("a bias row takes C's place under beta, over every row and batch item") {
    uint64_t seed = 450;
    for (int tr = 0; tr < 4; ++tr) {
      bool ta = (tr & 1) != 0, tb = (tr & 2) != 0;
      for (float beta : {1.f, 0.5f, 0.f}) {
        check_case({1, 23, 41, 300, ta, tb, 1.f, beta, false, false, true}, seed++);  // across K blocks
        check_case({3, 13, 17, 9, ta, tb, 1.f, beta, false, true, true}, seed++);     // tile edges, batch
        check_case({1, 3, 33, 40, ta, tb, 1.f, beta, false, false, true}, seed++);    // few rows
        check_case({1, 24, 40, 300, ta, tb, 1.f, beta, false, false, true, true}, seed++);  // vec4, 16
        check_case({6, 72, 100, 36, ta, tb, 1.f, beta, false, false, true, true}, seed++);  // vec4, 32
        check_case({16, 68, 72, 16, ta, tb, 1.f, beta, false, false, true, true}, seed++);  // vec4, 64
      }
      check_case({2, 5, 7, 0, ta, tb, 1.f, 0.75f, false, false, true}, seed++);  // K == 0: beta * bias
    }
  }

  // The NaN tests run scalar loads, then packed (vec4) at each tile size: 16, 32 and 64.
  const GemmCase kPoisonCases[] = {{2, 31, 45, 20}, {2, 32, 44, 200}, {6, 72, 100, 36}, {17, 65, 68, 12}};

  TEST_CASE("with a bias row, C is only written: NaN and infinity there do not matter") {
    for (const test::BackendUnderTest& be : test::backends_under_test()) {
      uint64_t seed = 550;
      for (GemmCase t : kPoisonCases)
        for (int tr = 0; tr < 4; ++tr) {
          t.trans_a = (tr & 1) != 0, t.trans_b = (tr & 2) != 0, t.beta = 1.f, t.bias = true;
          t.packed = t.M % 4 == 0;
          GemmData d = make_data(t, seed++);
          std::vector<float> want = d.c;
          ref::gemm(with_bias(d.g, d.bias), d.a.data(), d.b.data(), want.data());
          std::vector<float> poisoned(d.c.size(), std::numeric_limits<float>::quiet_NaN());
          std::vector<float> got = run_gemm(*be.backend, d.g, d.a, d.b, poisoned, d.bias);
          int off = 0;
          for (int64_t b = 0; b < d.g.batch; ++b)
            for (int64_t i = 0; i < d.g.M; ++i)
              for (int64_t j = 0; j < d.g.N; ++j) {
                size_t at = static_cast<size_t>(b * d.g.stride_c + i * d.g.ldc + j);
                off += !(std::fabs(got[at] - want[at]) <= 1e-4f);
              }
          INFO(describe(be.name, t));
          CHECK(off == 0);
        }
    }
  }

  TEST_CASE("beta == 0 ignores NaN and infinity in C") {
    for (const test::BackendUnderTest& be : test::backends_under_test()) {
      uint64_t seed = 500;
      for (GemmCase t : kPoisonCases)
        for (int tr = 0; tr < 4; ++tr) {
          t.trans_a = (tr & 1) != 0, t.trans_b = (tr & 2) != 0, t.packed = t.M % 4 == 0;
          GemmData d = make_data(t, seed++);
          std::vector<float> want = d.c;
          ref::gemm(d.g, d.a.data(), d.b.data(), want.data());
          std::vector<float> poisoned = d.c;
          for (size_t i = 0; i < poisoned.size(); ++i)
            poisoned[i] =
                i % 2 ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
          std::vector<float> got = run_gemm(*be.backend, d.g, d.a, d.b, poisoned);
          int non_finite = 0, off = 0;
          for (int64_t b = 0; b < d.g.batch; ++b)
            for (int64_t i = 0; i < d.g.M; ++i)
              for (int64_t j = 0; j < d.g.N; ++j) {
                size_t at = static_cast<size_t>(b * d.g.stride_c + i * d.g.ldc + j);
                non_finite += !std::isfinite(got[at]);
                off += !(std::fabs(got[at] - want[at]) <= 1e-4f);
              }
          INFO(describe(be.name, t));
          CHECK(non_finite == 0);
          CHECK(off == 0);
        }
    }
  }

  TEST_CASE("a product is the same on every run, its K split inside the workgroup or not") {
    for (const test::BackendUnderTest& be : test::backends_under_test()) {
      uint64_t seed = 650;
      for (GemmCase t :
           {GemmCase{1, 40, 36, 1000}, GemmCase{2, 33, 70, 130, true, false}, GemmCase{1, 600, 520, 40}}) {
        GemmData d = make_data(t, seed++);
        std::vector<float> one = run_gemm(*be.backend, d.g, d.a, d.b, d.c);
        std::vector<float> two = run_gemm(*be.backend, d.g, d.a, d.b, d.c);
        INFO(describe(be.name, t));
        CHECK(std::memcmp(one.data(), two.data(), one.size() * sizeof(float)) == 0);
      }
    }
  }

  TEST_CASE("CPU results are bitwise identical for one and two threads") {
    ThreadPool& pool = ThreadPool::instance();
    int before = pool.threads();
    const GemmCase cases[] = {
        {1, 300, 200, 300, false, false},  // split by rows
        {1, 20, 600, 300, false, true},    // split by columns
        {1, 130, 90, 700, true, false},    // several K blocks
        {3, 70, 80, 90, true, true, 0.5f, 0.25f, false, true},
    };
    uint64_t seed = 600;
    for (const GemmCase& t : cases) {
      GemmData d = make_data(t, seed++);
      for (const test::BackendUnderTest& be : test::backends_under_test()) {
        if (be.backend->device() != Device::CPU) continue;
        pool.set_threads(1);
        std::vector<float> one = run_gemm(*be.backend, d.g, d.a, d.b, d.c);
        pool.set_threads(2);
        std::vector<float> two = run_gemm(*be.backend, d.g, d.a, d.b, d.c);
        INFO(describe(be.name, t));
        CHECK(std::memcmp(one.data(), two.data(), one.size() * sizeof(float)) == 0);
      }
    }
    pool.set_threads(before);
  }
}
