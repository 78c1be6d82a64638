// The op-consistency table: every kernel of kernels.hpp but gemm (the GEMM tests cover it), each with shapes
// that include sizes off the SIMD widths (4, 8, 16), single elements and the model's shapes, and a tolerance.
// Each row makes random inputs on the host, runs the reference backend and every backend under test (each CPU
// instruction set this processor has; CUDA when built and present) on device copies of them, and compares
// every array afterwards: NaN must sit where the reference has NaN. The CPU backends must also give
// bitwise-identical results at 1 and 3 threads.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "ops/layout.hpp"
#include "support/backends.hpp"
#include "util/rng.hpp"

using namespace tf;

namespace {

using Sizes = std::vector<int64_t>;
using Floats = std::vector<float>;
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

struct Tol {
  float atol, rtol;
};

// One kernel call: host arrays, and how to run the kernel on device copies of them. Every array is compared
// after the call (kernels update some in place); run returns host-side answers (all_finite's) to compare too.
struct Call {
  std::vector<Floats> f;
  std::vector<std::vector<int32_t>> ids;
  std::function<Floats(Backend&, const std::vector<float*>&, const std::vector<int32_t*>&)> run;
};

struct Entry {
  std::string kernel;
  std::vector<Sizes> sizes;
  Tol tol;
  std::function<Call(const Sizes&, Rng&)> make;
};

Floats normal(Rng& rng, int64_t n, float scale = 1.f, float shift = 0.f) {
  Floats v(static_cast<size_t>(n));
  for (float& x : v) x = shift + scale * rng.normal();
  return v;
}
Floats uniform(Rng& rng, int64_t n, float lo, float hi) {
  Floats v(static_cast<size_t>(n));
  for (float& x : v) x = lo + (hi - lo) * rng.uniform();
  return v;
}
std::vector<int32_t> random_ids(Rng& rng, int64_t n, int64_t limit) {
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (int32_t& x : v) x = static_cast<int32_t>(rng.below(limit));
  return v;
}
size_t sz(int64_t n) { return static_cast<size_t>(n); }

// Runs a call on a backend over device copies of its arrays; returns the arrays afterwards, then the host
// answers as one more array.
std::vector<Floats> run_on(Backend& be, const Call& c) {
  std::vector<float*> fp;
  std::vector<int32_t*> ip;
  for (const Floats& a : c.f) {
    fp.push_back(static_cast<float*>(be.allocate(std::max<size_t>(a.size(), 1) * sizeof(float))));
    be.copy_from_host(fp.back(), a.data(), a.size() * sizeof(float));
  }
  for (const auto& a : c.ids) {
    ip.push_back(static_cast<int32_t*>(be.allocate(std::max<size_t>(a.size(), 1) * sizeof(int32_t))));
    be.copy_from_host(ip.back(), a.data(), a.size() * sizeof(int32_t));
  }
  Floats answers = c.run(be, fp, ip);
  be.synchronize();
  std::vector<Floats> out;
  for (size_t i = 0; i < c.f.size(); ++i) {
    out.emplace_back(c.f[i].size());
    be.copy_to_host(out.back().data(), fp[i], c.f[i].size() * sizeof(float));
    be.deallocate(fp[i], std::max<size_t>(c.f[i].size(), 1) * sizeof(float));
  }
  for (size_t i = 0; i < c.ids.size(); ++i)
    be.deallocate(ip[i], std::max<size_t>(c.ids[i].size(), 1) * sizeof(int32_t));
  out.push_back(answers);
  return out;
}

std::string describe(const std::string& kernel, const Sizes& s, const std::string& backend) {
  std::ostringstream os;
  os << kernel << " {";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? "," : "") << s[i];
  os << "} on " << backend;
  return os.str();
}

// Counts elements outside |got - want| <= atol + rtol |want|, or NaN on one side only; reports the first.
void compare(const std::vector<Floats>& want, const std::vector<Floats>& got, Tol tol,
             const std::string& what) {
  for (size_t a = 0; a < want.size(); ++a) {
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < want[a].size(); ++i) {
      float w = want[a][i], g = got[a][i];
      bool ok =
          std::isnan(w) ? std::isnan(g) : (w == g || std::fabs(g - w) <= tol.atol + tol.rtol * std::fabs(w));
      if (!ok && bad++ == 0) first = i;
    }
    CHECK_MESSAGE(bad == 0, what, ": array ", a, " has ", bad, " of ", want[a].size(),
                  " elements off; first at ", first, ": ", (bad ? got[a][first] : 0.f), " vs reference ",
                  (bad ? want[a][first] : 0.f));
  }
}

bool bitwise_equal(const std::vector<Floats>& a, const std::vector<Floats>& b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].size() != b[i].size() || std::memcmp(a[i].data(), b[i].data(), a[i].size() * sizeof(float)) != 0)
      return false;
  return true;
}

// ---- index-space helpers for the shape-agnostic kernels ----
Dims4 dims_of(const Sizes& s) { return Dims4{{s[0], s[1], s[2], s[3]}}; }
Strides4 contiguous(int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
  (void)d0;
  return {d1 * d2 * d3, d2 * d3, d3, 1};
}

// ---- the entries ----

// Sizes {d0, d1, d2, d3, pattern, op}. Patterns: 0 both full, 1 b a row broadcast over rows (a bias),
// 2 b a column, 3 b one scalar, 4 a read transposed (inner stride d2), 5 a broadcast along d1.
Entry binary_entry() {
  std::vector<Sizes> sizes;
  for (int64_t op = 0; op < 3; ++op) {
    for (int64_t p = 0; p < 6; ++p) {
      for (Sizes d : {Sizes{1, 1, 1, 1}, Sizes{1, 1, 3, 5}, Sizes{2, 3, 4, 17}, Sizes{1, 2, 33, 31}})
        sizes.push_back({d[0], d[1], d[2], d[3], p, op});
    }
    sizes.push_back({1, 1, 2048, 384, 1, op});
  }
  return {"binary_forward", sizes, {0, 0}, [](const Sizes& s, Rng& rng) {
            Dims4 d = dims_of(s);
            int64_t n = d.numel(), p = s[4];
            Strides4 full = contiguous(s[0], s[1], s[2], s[3]), sa = full, sb = full;
            int64_t na = n, nb = n;
            if (p == 1) sb = {0, 0, 0, 1}, nb = s[3];
            if (p == 2) sb = {s[1] * s[2], s[2], 1, 0}, nb = s[0] * s[1] * s[2];
            if (p == 3) sb = {0, 0, 0, 0}, nb = 1;
            if (p == 4) sa = {s[1] * s[2] * s[3], s[2] * s[3], 1, s[2]};
            if (p == 5) sa = {s[2] * s[3], 0, s[3], 1}, na = s[0] * s[2] * s[3];
            BinaryOp op = static_cast<BinaryOp>(s[5]);
            Call c{{normal(rng, na), normal(rng, nb), Floats(sz(n))}, {}, {}};
            c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
              be.binary_forward(op, f[0], sa, f[1], sb, f[2], d);
              return Floats{};
            };
            return c;
          }};
}

const std::vector<int64_t> kFlatSizes{1, 3, 4, 7, 8, 15, 16, 17, 31, 33, 100, 1000, 2 * 16384 + 5, 262144};

std::vector<Sizes> flat_sizes() {
  std::vector<Sizes> out;
  for (int64_t n : kFlatSizes) out.push_back({n});
  return out;
}

std::vector<Entry> elementwise_entries() {
  std::vector<Entry> e;
  e.push_back({"scale", flat_sizes(), {0, 0}, [](const Sizes& s, Rng& rng) {
                 Call c{{normal(rng, s[0]), Floats(sz(s[0]))}, {}, {}};
                 size_t n = sz(s[0]);
                 c.run = [n](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                   be.scale(f[0], -0.37f, f[1], n);
                   return Floats{};
                 };
                 return c;
               }});
  e.push_back({"axpy", flat_sizes(), {1e-6f, 1e-6f}, [](const Sizes& s, Rng& rng) {
                 Call c{{normal(rng, s[0]), normal(rng, s[0])}, {}, {}};
                 size_t n = sz(s[0]);
                 c.run = [n](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                   be.axpy(1.7f, f[0], f[1], n);
                   return Floats{};
                 };
                 return c;
               }});
  e.push_back({"mul_accumulate", flat_sizes(), {1e-6f, 1e-6f}, [](const Sizes& s, Rng& rng) {
                 Call c{{normal(rng, s[0]), normal(rng, s[0]), normal(rng, s[0])}, {}, {}};
                 size_t n = sz(s[0]);
                 c.run = [n](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                   be.mul_accumulate(f[0], f[1], f[2], n);
                   return Floats{};
                 };
                 return c;
               }});
  return e;
}

std::vector<Entry> reduce_entries() {
  std::vector<Entry> e;
  std::vector<Sizes> sums;
  for (int64_t n : {1, 5, 16, 17, 511, 513, 1000, 16385, 40003, 262144}) sums.push_back({n});
  for (int squares = 0; squares < 2; ++squares) {
    e.push_back({squares ? "sum_squares" : "sum", sums, {1e-5f, 2e-6f}, [squares](const Sizes& s, Rng& rng) {
                   Call c{{normal(rng, s[0], 1.f, 0.3f), Floats(1)}, {}, {}};
                   size_t n = sz(s[0]);
                   c.run = [n, squares](Backend& be, const std::vector<float*>& f,
                                        const std::vector<int32_t*>&) {
                     if (squares)
                       be.sum_squares(f[0], n, f[1]);
                     else
                       be.sum(f[0], n, f[1]);
                     return Floats{};
                   };
                   return c;
                 }});
  }
  std::vector<Sizes> rows;
  for (Sizes rc : {Sizes{1, 1}, Sizes{1, 17}, Sizes{7, 3}, Sizes{33, 130}, Sizes{2048, 128}, Sizes{2048, 384},
                   Sizes{64, 2002}, Sizes{5, 40}, Sizes{16449, 3}})  // the last: blocks of 64 rows in rounds
    for (int64_t acc = 0; acc < 2; ++acc) rows.push_back({rc[0], rc[1], acc});
  e.push_back({"sum_rows", rows, {2e-5f, 2e-5f}, [](const Sizes& s, Rng& rng) {
                 Call c{{normal(rng, s[0] * s[1]), normal(rng, s[1])}, {}, {}};
                 int64_t r = s[0], cols = s[1];
                 bool acc = s[2] != 0;
                 c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                   be.sum_rows(f[0], f[1], r, cols, acc);
                   return Floats{};
                 };
                 return c;
               }});
  // Sizes {n, kind}: 0 finite, 1 NaN last, 2 NaN at a random place, 3 +inf, 4 -inf, 5 huge but finite.
  std::vector<Sizes> finite;
  for (int64_t n : {1, 7, 17, 513, 40000})
    for (int64_t kind = 0; kind < 6; ++kind) finite.push_back({n, kind});
  e.push_back({"all_finite", finite, {0, 0}, [](const Sizes& s, Rng& rng) {
                 Floats x = normal(rng, s[0]);
                 size_t at = s[1] == 1 ? sz(s[0] - 1) : static_cast<size_t>(rng.below(s[0]));
                 const float special[] = {0.f, kNaN, kNaN, kInf, -kInf, 3e38f};
                 if (s[1] > 0) x[at] = special[s[1]];
                 Call c{{x}, {}, {}};
                 size_t n = sz(s[0]);
                 c.run = [n](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                   return Floats{be.all_finite(f[0], n) ? 1.f : 0.f};
                 };
                 return c;
               }});
  return e;
}

// Sizes {d0, d1, d2, d3, pattern, accumulate}. Patterns: 0 contiguous copy, 1 transpose of the last two
// dims, 2 swap of dims 1 and 2 (splitting heads), 3 narrow out of wider rows, 4 concat into wider rows,
// 5 one value broadcast, 6 accumulate along d2 into one row (destination stride 0).
Entry copy_strided_entry() {
  std::vector<Sizes> sizes;
  for (int64_t p = 0; p < 7; ++p)
    for (int64_t acc = 0; acc < 2; ++acc) {
      if (p == 6 && !acc) continue;
      for (Sizes d : {Sizes{1, 1, 1, 1}, Sizes{1, 1, 3, 5}, Sizes{2, 3, 4, 17}, Sizes{2, 4, 32, 32}})
        sizes.push_back({d[0], d[1], d[2], d[3], p, acc});
    }
  return {"copy_strided", sizes, {0, 0}, [](const Sizes& s, Rng& rng) {
            Dims4 d = dims_of(s);
            int64_t n = d.numel(), p = s[4], src_n = n, dst_n = n, src_off = 0, dst_off = 0;
            Strides4 ss = contiguous(s[0], s[1], s[2], s[3]), ds = ss;
            if (p == 1) ss = {s[1] * s[2] * s[3], s[2] * s[3], 1, s[2]};
            if (p == 2) ss = {s[1] * s[2] * s[3], s[3], s[1] * s[3], 1};
            if (p == 3)
              ss = contiguous(s[0], s[1], s[2], s[3] + 5), src_n = n / s[3] * (s[3] + 5), src_off = 2;
            if (p == 4)
              ds = contiguous(s[0], s[1], s[2], s[3] + 3), dst_n = n / s[3] * (s[3] + 3), dst_off = 1;
            if (p == 5) ss = {0, 0, 0, 0}, src_n = 1;
            if (p == 6) ds = {s[1] * s[3], s[3], 0, 1}, dst_n = s[0] * s[1] * s[3];
            bool acc = s[5] != 0;
            Call c{{normal(rng, src_n), normal(rng, dst_n)}, {}, {}};
            c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
              be.copy_strided(f[0] + src_off, ss, f[1] + dst_off, ds, d, acc);
              return Floats{};
            };
            return c;
          }};
}

std::vector<Sizes> norm_sizes() {
  return {{1, 1}, {1, 2}, {3, 5}, {7, 17}, {4, 33}, {2048, 128}, {5, 130}, {2, 1000}, {3, 64}, {130, 16}};
}

std::vector<Entry> layer_norm_entries() {
  std::vector<Entry> e;
  std::vector<Sizes> fwd = norm_sizes();
  fwd.push_back({6, 19, 1});  // NaN in some rows
  fwd.push_back({6, 32, 2});  // +inf in some rows
  e.push_back(
      {"layer_norm_forward", fwd, {1e-5f, 1e-5f}, [](const Sizes& s, Rng& rng) {
         int64_t rows = s[0], C = s[1];
         Floats x = normal(rng, rows * C, 2.f, 0.5f);
         if (s.size() > 2)
           for (int64_t r = 0; r < rows; r += 2) x[sz(r * C + rng.below(C))] = s[2] == 1 ? kNaN : kInf;
         Call c{{x, normal(rng, C), normal(rng, C), Floats(sz(rows * C)), Floats(sz(rows)), Floats(sz(rows))},
                {},
                {}};
         c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
           be.layer_norm_forward(f[0], f[1], f[2], f[3], f[4], f[5], rows, C, 1e-5f);
           return Floats{};
         };
         return c;
       }});
  // dgamma and dbeta add over every row in float (both sides): their error grows like sqrt(rows).
  e.push_back({"layer_norm_backward", norm_sizes(), {2e-4f, 2e-5f}, [](const Sizes& s, Rng& rng) {
                 int64_t rows = s[0], C = s[1];
                 Floats x = normal(rng, rows * C, 2.f, 0.5f), gamma = normal(rng, C), beta = normal(rng, C);
                 Floats y(sz(rows * C)), mean(sz(rows)), rstd(sz(rows));
                 reference_backend().layer_norm_forward(x.data(), gamma.data(), beta.data(), y.data(),
                                                        mean.data(), rstd.data(), rows, C, 1e-5f);
                 Call c{{normal(rng, rows * C), x, gamma, mean, rstd, Floats(sz(rows * C)), normal(rng, C),
                         normal(rng, C)},
                        {},
                        {}};
                 c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                   be.layer_norm_backward(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], rows, C);
                   return Floats{};
                 };
                 return c;
               }});
  return e;
}

std::vector<Entry> gelu_entries() {
  std::vector<Entry> e;
  std::vector<Sizes> sizes;
  for (int64_t mode = 0; mode < 2; ++mode)
    for (int64_t n : kFlatSizes) sizes.push_back({n, mode});
  sizes.push_back({37, 0, 1});  // NaN and infinities in the input
  sizes.push_back({37, 1, 1});
  auto input = [](const Sizes& s, Rng& rng) {
    Floats x = normal(rng, s[0], 3.f);
    if (s.size() > 2) x[3] = kNaN, x[20] = kInf, x[36] = -kInf;
    return x;
  };
  // Without and with the slope (dy/dx, what the backward pass multiplies by).
  for (bool with_slope : {false, true})
    e.push_back({"gelu_forward", sizes, {2e-6f, 1e-5f}, [input, with_slope](const Sizes& s, Rng& rng) {
                   Call c{{input(s, rng), Floats(sz(s[0])), Floats(sz(s[0]))}, {}, {}};
                   size_t n = sz(s[0]);
                   GeluMode m = s[1] ? GeluMode::Tanh : GeluMode::Erf;
                   c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                     be.gelu_forward(f[0], f[1], with_slope ? f[2] : nullptr, n, m);
                     return Floats{};
                   };
                   return c;
                 }});
  return e;
}

std::vector<Sizes> row_sizes() {
  return {{1, 1}, {1, 2}, {3, 7}, {5, 16}, {4, 17}, {2, 33}, {2048, 32}, {64, 2002}, {3, 1000}, {9, 255}};
}

// Some rows of x get a NaN (kind 1), a +inf (2), become all -inf (3) or get one -inf (4).
void poison_rows(Floats& x, int64_t rows, int64_t cols, int64_t kind, Rng& rng) {
  for (int64_t r = 0; r < rows; r += 2) {
    size_t at = sz(r * cols + rng.below(cols));
    if (kind == 1) x[at] = kNaN;
    if (kind == 2) x[at] = kInf;
    if (kind == 3)
      for (int64_t c = 0; c < cols; ++c) x[sz(r * cols + c)] = -kInf;
    if (kind == 4) x[at] = -kInf;
  }
}

std::vector<Entry> softmax_entries() {
  std::vector<Entry> e;
  std::vector<Sizes> fwd = row_sizes();
  for (int64_t kind = 1; kind <= 4; ++kind) {
    fwd.push_back({5, 17, kind});
    fwd.push_back({4, 1, kind});
  }
  for (int log = 0; log < 2; ++log) {
    // log_softmax_forward is x - lse: off by an ulp of the log-sum-exp (about 1e-6 near 10).
    e.push_back({log ? "log_softmax_forward" : "softmax_forward",
                 fwd,
                 {log ? 3e-6f : 1e-6f, 1e-5f},
                 [log](const Sizes& s, Rng& rng) {
                   int64_t rows = s[0], cols = s[1];
                   Floats x = normal(rng, rows * cols, 3.f);
                   if (s.size() > 2) poison_rows(x, rows, cols, s[2], rng);
                   Call c{{x, Floats(sz(rows * cols))}, {}, {}};
                   c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                     if (log)
                       be.log_softmax_forward(f[0], f[1], rows, cols);
                     else
                       be.softmax_forward(f[0], f[1], rows, cols);
                     return Floats{};
                   };
                   return c;
                 }});
    // log_softmax_backward subtracts exp(y) * sum(dy): a float sum over up to 2002 columns.
    e.push_back({log ? "log_softmax_backward" : "softmax_backward",
                 row_sizes(),
                 {log ? 3e-5f : 1e-6f, 1e-5f},
                 [log](const Sizes& s, Rng& rng) {
                   int64_t rows = s[0], cols = s[1];
                   Floats x = normal(rng, rows * cols, 3.f), y(x.size());
                   if (log)
                     reference_backend().log_softmax_forward(x.data(), y.data(), rows, cols);
                   else
                     reference_backend().softmax_forward(x.data(), y.data(), rows, cols);
                   Call c{{y, normal(rng, rows * cols), Floats(sz(rows * cols))}, {}, {}};
                   c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                     if (log)
                       be.log_softmax_backward(f[0], f[1], f[2], rows, cols);
                     else
                       be.softmax_backward(f[0], f[1], f[2], rows, cols);
                     return Floats{};
                   };
                   return c;
                 }});
  }
  return e;
}

// Sizes {d0, d1, d2, d3, pattern}: 0 a full mask, 1 one [d2, d3] mask for every batch and head (causal),
// 2 one mask value per row, 3 a key-padding mask [d0, d3] broadcast over d1 and d2.
Entry masked_fill_entry() {
  std::vector<Sizes> sizes;
  for (int64_t p = 0; p < 4; ++p)
    for (Sizes d : {Sizes{1, 1, 1, 1}, Sizes{1, 1, 3, 5}, Sizes{2, 3, 4, 17}, Sizes{64, 4, 32, 32}})
      sizes.push_back({d[0], d[1], d[2], d[3], p});
  return {"masked_fill", sizes, {0, 0}, [](const Sizes& s, Rng& rng) {
            Dims4 d = dims_of(s);
            int64_t p = s[4], mn = d.numel();
            Strides4 ms = contiguous(s[0], s[1], s[2], s[3]);
            if (p == 1) ms = {0, 0, s[3], 1}, mn = s[2] * s[3];
            if (p == 2) ms = {s[1] * s[2], s[2], 1, 0}, mn = s[0] * s[1] * s[2];
            if (p == 3) ms = {s[3], 0, 0, 1}, mn = s[0] * s[3];
            Floats mask(sz(mn));
            for (float& m : mask) m = rng.uniform() < 0.4f ? 1.f : 0.f;
            Call c{{normal(rng, d.numel()), mask, Floats(sz(d.numel()))}, {}, {}};
            c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
              be.masked_fill(f[0], f[1], ms, -kInf, f[2], d);
              return Floats{};
            };
            return c;
          }};
}

std::vector<Entry> embedding_entries() {
  std::vector<Sizes> sizes{{1, 1, 1}, {5, 7, 3}, {10, 33, 17}, {2002, 2048, 128}, {7, 100, 130}, {3, 20, 64}};
  std::vector<Entry> e;
  e.push_back({"embedding_forward", sizes, {0, 0}, [](const Sizes& s, Rng& rng) {
                 int64_t V = s[0], n = s[1], C = s[2];
                 Call c{{normal(rng, V * C), Floats(sz(n * C))}, {random_ids(rng, n, V)}, {}};
                 c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>& ids) {
                   be.embedding_forward(f[0], ids[0], f[1], n, C);
                   return Floats{};
                 };
                 return c;
               }});
  // Backward: also runs of one id across several 64-row chunks ({4, 700, 9}), and ids that never repeat
  // (the 4th size: a plain scatter, as pick_rows makes).
  std::vector<Sizes> backward = sizes;
  for (Sizes more : {Sizes{4, 700, 9}, Sizes{3, 129, 5}, Sizes{300, 200, 33, 1}, Sizes{9, 9, 4, 1}})
    backward.push_back(more);
  e.push_back({"embedding_backward", backward, {2e-5f, 2e-5f}, [](const Sizes& s, Rng& rng) {
                 int64_t V = s[0], n = s[1], C = s[2];
                 Ids ids(random_ids(rng, n, V), Shape{n});
                 if (s.size() > 3) std::iota(ids.data.begin(), ids.data.end(), static_cast<int32_t>(V - n));
                 Ids by_id = rows_by_id(ids, V);
                 Call c{{normal(rng, n * C), normal(rng, V * C)}, {ids.data, by_id.data}, {}};
                 bool sorted = by_id.numel() > 0;
                 c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>& id) {
                   be.embedding_backward(f[0], id[0], sorted ? id[1] : nullptr, f[1], n, C);
                   return Floats{};
                 };
                 return c;
               }});
  return e;
}

// Sizes {B, heads, Tq, Tk, D, causal, q_offset, padding, layout, poison}. Layouts: 0 separate q, k, v
// [B, T, heads*D]; 1 one packed [B, T, 3C] buffer (self-attention); 2 rows wider than heads*D (extra
// columns the kernel must leave alone). padding drops random keys and every key of batch 0's last row
// group; poison puts NaN into q (1), into one key row (2) or into one value row (3).
std::vector<Sizes> attention_sizes(bool with_poison) {
  std::vector<Sizes> s{
      {1, 1, 1, 1, 1, 0, 0, 0, 0},       {2, 2, 5, 5, 3, 0, 0, 0, 0},      {2, 3, 7, 7, 8, 1, 0, 0, 1},
      {1, 2, 4, 9, 17, 0, 0, 1, 0},      {2, 1, 33, 33, 16, 1, 0, 1, 1},   {3, 2, 17, 17, 32, 1, 0, 0, 2},
      {64, 4, 32, 32, 32, 1, 0, 0, 1},   {4, 4, 32, 32, 32, 0, 0, 1, 1},   {2, 2, 3, 11, 8, 1, 8, 0, 0},
      {1, 3, 1, 20, 16, 1, 19, 1, 0},    {2, 2, 100, 100, 32, 1, 0, 1, 1}, {1, 1, 3, 300, 4, 0, 0, 1, 0},
      {1, 2, 20, 300, 12, 1, 280, 0, 2}, {2, 4, 9, 9, 1, 1, 0, 0, 1},      {1, 1, 5, 5, 65, 0, 0, 0, 2}};
  if (with_poison)
    for (int64_t p = 1; p <= 3; ++p) {
      s.push_back({2, 2, 6, 6, 8, 1, 0, 0, 1, p});
      s.push_back({2, 1, 5, 7, 3, 0, 0, 0, 0, p});
    }
  return s;
}

struct AttentionCase {
  AttentionArgs a;
  int64_t q_off = 0, k_off = 0, v_off = 0, dq_off = 0, dk_off = 0, dv_off = 0;
  bool packed = false;
  Floats q, k, v, keep;
};

AttentionCase attention_case(const Sizes& s, Rng& rng) {
  AttentionCase c;
  AttentionArgs& a = c.a;
  a.B = static_cast<int>(s[0]);
  a.heads = static_cast<int>(s[1]);
  a.Tq = static_cast<int>(s[2]);
  a.Tk = static_cast<int>(s[3]);
  a.D = static_cast<int>(s[4]);
  a.causal = s[5] != 0;
  a.q_offset = static_cast<int>(s[6]);
  a.scale = 1.f / std::sqrt(static_cast<float>(a.D));
  int64_t C = static_cast<int64_t>(a.heads) * a.D, layout = s[8];
  c.packed = layout == 1;
  int64_t row = layout == 2 ? C + 5 : C;
  a.q_row = a.k_row = a.v_row = c.packed ? 3 * C : row;
  a.out_row = C;
  if (c.packed) {
    c.k_off = c.dk_off = C;
    c.v_off = c.dv_off = 2 * C;
    c.q = normal(rng, a.B * a.Tq * 3 * C);
  } else {
    c.q_off = c.k_off = c.v_off = layout == 2 ? 2 : 0;
    c.q = normal(rng, a.B * a.Tq * row);
    c.k = normal(rng, a.B * a.Tk * row);
    c.v = normal(rng, a.B * a.Tk * row);
  }
  if (s[7]) {
    c.keep.assign(sz(a.B * a.Tk), 1.f);
    for (float& k : c.keep) k = rng.uniform() < 0.3f ? 0.f : 1.f;
    if (a.B > 1)
      for (int64_t j = 0; j < a.Tk; ++j) c.keep[sz(j)] = 0.f;  // batch 0: every key padded
  }
  int64_t poison = s.size() > 9 ? s[9] : 0;
  Floats& kv = c.packed ? c.q : (poison == 2 ? c.k : c.v);
  if (poison == 1) c.q[sz(c.q_off + 2 * a.q_row + 1)] = kNaN;          // batch 0, query 2
  if (poison == 2) kv[sz(c.k_off + (a.Tk + 1) * a.k_row + 3)] = kNaN;  // batch 1, key 1
  if (poison == 3) kv[sz(c.v_off + (a.Tk + 1) * a.v_row + 3)] = kNaN;
  return c;
}

std::vector<Entry> attention_entries() {
  std::vector<Entry> e;
  e.push_back({"attention_forward", attention_sizes(true), {2e-6f, 1e-5f}, [](const Sizes& s, Rng& rng) {
                 AttentionCase ac = attention_case(s, rng);
                 AttentionArgs a = ac.a;
                 Call c{{ac.q, ac.k, ac.v, ac.keep, Floats(sz(a.B * a.Tq * a.out_row)),
                         Floats(sz(a.B * a.heads * a.Tq * a.Tk))},
                        {},
                        {}};
                 c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                   AttentionArgs args = a;
                   args.key_keep = ac.keep.empty() ? nullptr : f[3];
                   const float* base_k = ac.packed ? f[0] : f[1];
                   const float* base_v = ac.packed ? f[0] : f[2];
                   be.attention_forward(args, f[0] + ac.q_off, base_k + ac.k_off, base_v + ac.v_off, f[4],
                                        f[5]);
                   return Floats{};
                 };
                 return c;
               }});
  e.push_back(
      {"attention_backward", attention_sizes(false), {5e-6f, 2e-5f}, [](const Sizes& s, Rng& rng) {
         AttentionCase ac = attention_case(s, rng);
         AttentionArgs a = ac.a;
         a.key_keep = ac.keep.empty() ? nullptr : ac.keep.data();
         const float* q = ac.q.data() + ac.q_off;
         const float* k = (ac.packed ? ac.q.data() : ac.k.data()) + ac.k_off;
         const float* v = (ac.packed ? ac.q.data() : ac.v.data()) + ac.v_off;
         Floats out(sz(a.B * a.Tq * a.out_row)), w(sz(a.B * a.heads * a.Tq * a.Tk));
         reference_backend().attention_forward(a, q, k, v, out.data(), w.data());
         // Gradient buffers start as noise: columns outside each operand must keep it.
         Floats dq = normal(rng, static_cast<int64_t>(ac.q.size()));
         Floats dk = normal(rng, static_cast<int64_t>(ac.k.size())),
                dv = normal(rng, static_cast<int64_t>(ac.v.size()));
         Call c{{ac.q, ac.k, ac.v, w, normal(rng, static_cast<int64_t>(out.size())), dq, dk, dv}, {}, {}};
         c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
           AttentionArgs args = a;
           args.key_keep = nullptr;  // the weights already hold the masks
           const float* bk = ac.packed ? f[0] : f[1];
           const float* bv = ac.packed ? f[0] : f[2];
           float* gk = ac.packed ? f[5] : f[6];
           float* gv = ac.packed ? f[5] : f[7];
           be.attention_backward(args, f[0] + ac.q_off, bk + ac.k_off, bv + ac.v_off, f[3], f[4],
                                 f[5] + ac.dq_off, gk + (ac.packed ? ac.dk_off : ac.k_off),
                                 gv + (ac.packed ? ac.dv_off : ac.v_off));
           return Floats{};
         };
         return c;
       }});
  return e;
}

std::vector<Entry> cross_entropy_entries() {
  std::vector<Sizes> sizes{{1, 1}, {1, 2}, {3, 17}, {5, 33}, {2048, 2002}, {7, 1000}, {16, 64}};
  sizes.push_back({6, 19, 1});  // NaN in some rows
  sizes.push_back({6, 19, 2});  // +inf in some rows
  sizes.push_back({6, 19, 3});  // some rows all -inf
  std::vector<Entry> e;
  // Without and with the gradient (softmax - onehot, what the backward pass scales by each row's weight).
  for (bool with_grad : {false, true})
    e.push_back({"cross_entropy_forward", sizes, {2e-6f, 1e-5f}, [with_grad](const Sizes& s, Rng& rng) {
                   int64_t N = s[0], V = s[1];
                   Floats logits = normal(rng, N * V, 3.f);
                   if (s.size() > 2) poison_rows(logits, N, V, s[2], rng);
                   Call c{{logits, Floats(sz(N)), Floats(sz(N * V))}, {random_ids(rng, N, V)}, {}};
                   c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>& ids) {
                     be.cross_entropy_forward(f[0], ids[0], f[1], with_grad ? f[2] : nullptr, N, V);
                     return Floats{};
                   };
                   return c;
                 }});
  return e;
}

// Sizes {B, T, cols, head_dim, rotate_cols, pos_offset, inverse}.
Entry rotary_entry() {
  std::vector<Sizes> sizes{{1, 1, 2, 2, 2, 0, 0},          {2, 5, 8, 4, 8, 0, 0},
                           {2, 7, 12, 4, 8, 3, 1},         {64, 32, 128, 32, 128, 0, 0},
                           {3, 9, 130, 64, 128, 5, 1},     {1, 3, 96, 32, 64, 0, 0},
                           {2, 40, 160, 80, 160, 1000, 0}, {1, 300, 8, 8, 8, 7, 1}};
  return {"rotary_forward", sizes, {1e-6f, 1e-6f}, [](const Sizes& s, Rng& rng) {
            Call c{{normal(rng, s[0] * s[1] * s[2]), Floats(sz(s[0] * s[1] * s[2]))}, {}, {}};
            c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
              be.rotary_forward(f[0], f[1], s[0], s[1], s[2], s[3], s[4], s[5], s[6] != 0);
              return Floats{};
            };
            return c;
          }};
}

// A step-log row as the optimizer kernels read it: guard 1 keeps the step with a clip factor, 2 skips it.
Floats guard_row(int64_t guard) {
  Floats row(kStepLogWidth, 0.f);
  row[kStepKeep] = guard == 1 ? 1.f : 0.f;
  row[kStepCoef] = guard == 1 ? 0.37f : 1.f;
  return row;
}

std::vector<Entry> optimizer_entries() {
  std::vector<Entry> e;
  // Sizes {n, variant, step, guard}: variant 0 Adam, 1 Adam with L2 weight decay, 2 AdamW; guard 0 none,
  // else a step-log row in device memory (guard_row).
  std::vector<Sizes> adam;
  for (int64_t n : {1, 7, 17, 1000, 40001})
    for (int64_t variant = 0; variant < 3; ++variant) adam.push_back({n, variant, n % 5 + 1, 0});
  for (int64_t n : {7, 1000})
    for (int64_t guard = 1; guard < 3; ++guard) adam.push_back({n, n % 3, 2, guard});
  e.push_back(
      {"adam_step", adam, {1e-7f, 2e-6f}, [](const Sizes& s, Rng& rng) {
         AdamArgs a;
         a.lr = 3e-3f;
         a.weight_decay = s[1] ? 0.1f : 0.f;
         a.decoupled = s[1] == 2;
         a.bias_correction1 = 1.f - std::pow(a.beta1, static_cast<float>(s[2]));
         a.bias_correction2 = 1.f - std::pow(a.beta2, static_cast<float>(s[2]));
         int64_t n = s[0], guard = s[3];
         Call c{{normal(rng, n), normal(rng, n), normal(rng, n, 0.1f), uniform(rng, n, 0.f, 0.01f)}, {}, {}};
         if (guard) c.f.push_back(guard_row(guard));
         c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
           AdamArgs on_device = a;
           if (guard) on_device.guard = f[4];
           be.adam_step(f[0], f[1], f[2], f[3], sz(n), on_device);
           return Floats{};
         };
         return c;
       }});
  // Sizes {n, momentum, weight decay, guard}: momentum 0 (no buffer: a null pointer), 1 first step, 2 a later
  // step; guard as for Adam.
  std::vector<Sizes> sgd;
  for (int64_t n : {1, 7, 17, 1000, 40001})
    for (int64_t m = 0; m < 3; ++m)
      for (int64_t wd = 0; wd < 2; ++wd) sgd.push_back({n, m, wd, 0});
  for (int64_t m = 0; m < 3; ++m)
    for (int64_t guard = 1; guard < 3; ++guard) sgd.push_back({17, m, 1, guard});
  e.push_back({"sgd_step", sgd, {1e-6f, 1e-6f}, [](const Sizes& s, Rng& rng) {
                 SgdArgs a;
                 a.lr = 0.05f;
                 a.momentum = s[1] ? 0.9f : 0.f;
                 a.first_step = s[1] == 1;
                 a.weight_decay = s[2] ? 0.01f : 0.f;
                 int64_t n = s[0], guard = s[3];
                 Call c{{normal(rng, n), normal(rng, n), normal(rng, n)}, {}, {}};
                 if (guard) c.f.push_back(guard_row(guard));
                 c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
                   SgdArgs on_device = a;
                   if (guard) on_device.guard = f[3];
                   be.sgd_step(f[0], f[1], a.momentum != 0.f ? f[2] : nullptr, sz(n), on_device);
                   return Floats{};
                 };
                 return c;
               }});
  return e;
}

// Sizes {n, case}: case 0 clips (max_norm below the norm), 1 does not (max_norm infinite), 2 a max_norm
// above the norm, 3 a NaN loss, 4 an infinite square, 5 squares whose float sum would overflow but whose
// double sum does not.
Entry step_guard_entry() {
  std::vector<Sizes> sizes;
  for (int64_t n : {0, 1, 5, 60})
    for (int64_t kind = 0; kind < 6; ++kind) sizes.push_back({n, kind});
  return {"step_guard", sizes, {0, 0}, [](const Sizes& s, Rng& rng) {
            int64_t n = s[0], kind = s[1];
            Floats squares = uniform(rng, std::max<int64_t>(n, 1), 0.f, 3.f);
            if (kind == 4 && n) squares[sz(n - 1)] = kInf;
            if (kind == 5)
              for (float& x : squares) x = 3e38f;
            Floats loss{kind == 3 ? kNaN : 2.5f};
            float max_norm = kind == 0 ? 0.5f : kind == 2 ? 1e6f : kInf;
            Call c{{squares, loss, Floats(kStepLogWidth, -1.f)}, {}, {}};
            c.run = [=](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
              be.step_guard(f[0], sz(n), f[1], 0.25f, max_norm, f[2]);
              return Floats{};
            };
            return c;
          }};
}

Entry fill_entry() {
  return {"fill", flat_sizes(), {0, 0}, [](const Sizes& s, Rng& rng) {
            Call c{{normal(rng, s[0])}, {}, {}};
            size_t n = sz(s[0]);
            c.run = [n](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
              be.fill(f[0], -0.625f, n);
              return Floats{};
            };
            return c;
          }};
}

const std::vector<Entry>& table() {
  static const std::vector<Entry> t = [] {
    std::vector<Entry> all;
    auto add = [&all](std::vector<Entry> more) {
      for (Entry& m : more) all.push_back(std::move(m));
    };
    add({binary_entry(), copy_strided_entry(), masked_fill_entry(), rotary_entry()});
    add(elementwise_entries());
    add(reduce_entries());
    add(layer_norm_entries());
    add(gelu_entries());
    add(softmax_entries());
    add(embedding_entries());
    add(attention_entries());
    add(cross_entropy_entries());
    add(optimizer_entries());
    add({fill_entry()});
    add({step_guard_entry()});
    return all;
  }();
  return t;
}

uint64_t seed_of(size_t entry, size_t size) { return 1000 * entry + size + 7; }

// Whether a backend's table has the kernel of this name. A backend still being written (WebGPU, stem by
// stem) lacks some: the completeness case below fails for it, and its other kernels are held to the
// reference here meanwhile.
bool has_kernel(const Backend& be, const std::string& kernel) {
#define TF_KERNEL_HAS(stem, ret, name, params) \
  if (kernel == #name) return be.name != nullptr;
  TF_BACKEND_KERNELS(TF_KERNEL_HAS)
#undef TF_KERNEL_HAS
  return false;
}

}  // namespace

TEST_SUITE("op_consistency") {
  TEST_CASE("every kernel matches the reference on every backend under test") {
    std::string skip = test::cuda_skip_reason();
    if (!skip.empty()) MESSAGE(skip);
    const auto& t = table();
    std::string missing;
    for (size_t e = 0; e < t.size(); ++e) {
      for (const test::BackendUnderTest& b : test::backends_under_test())
        if (!has_kernel(*b.backend, t[e].kernel)) missing += " " + b.name + "/" + t[e].kernel;
      for (size_t s = 0; s < t[e].sizes.size(); ++s) {
        Rng rng(seed_of(e, s));
        Call call = t[e].make(t[e].sizes[s], rng);
        std::vector<Floats> want = run_on(reference_backend(), call);
        for (const test::BackendUnderTest& b : test::backends_under_test())
          if (has_kernel(*b.backend, t[e].kernel))
            compare(want, run_on(*b.backend, call), t[e].tol, describe(t[e].kernel, t[e].sizes[s], b.name));
      }
    }
    if (!missing.empty()) MESSAGE("kernels not yet in their backend's table, not compared:", missing);
  }

  TEST_CASE("CPU results are bitwise the same at 1 and 3 threads") {
    ThreadPool& pool = ThreadPool::instance();
    int before = pool.threads();
#ifndef TF_SINGLE_THREADED  // the single-threaded wasm build has one thread whatever is asked
    pool.set_threads(3);
    REQUIRE(pool.threads() == 3);
#endif
    const auto& t = table();
    for (size_t e = 0; e < t.size(); ++e) {
      for (size_t s = 0; s < t[e].sizes.size(); ++s) {
        Rng rng(seed_of(e, s));
        Call call = t[e].make(t[e].sizes[s], rng);
        for (const test::BackendUnderTest& b : test::backends_under_test()) {
          if (b.backend->device() != Device::CPU) continue;
          pool.set_threads(1);
          std::vector<Floats> one = run_on(*b.backend, call);
          pool.set_threads(3);
          std::vector<Floats> three = run_on(*b.backend, call);
          CHECK_MESSAGE(bitwise_equal(one, three), describe(t[e].kernel, t[e].sizes[s], b.name));
        }
      }
    }
    pool.set_threads(before);
  }

  // WebGPU's column reductions walk fixed blocks of rows: sum_rows in the CPU's order exactly, and
  // LayerNorm's dgamma, dbeta and the embedding's backward the same on every run.
  TEST_CASE("WebGPU's column sums add in the CPU's order, the same on every run") {
    std::string skip = test::webgpu_skip_reason();
    if (!skip.empty()) MESSAGE(skip);
    Backend* cpu = nullptr;
    for (const test::BackendUnderTest& b : test::backends_under_test())
      if (b.backend->device() == Device::CPU) cpu = b.backend;
    REQUIRE(cpu != nullptr);
    const auto& t = table();
    for (size_t e = 0; e < t.size(); ++e) {
      bool in_cpu_order = t[e].kernel == "sum_rows";
      if (!in_cpu_order && t[e].kernel != "layer_norm_backward" && t[e].kernel != "embedding_backward")
        continue;
      for (size_t s = 0; s < t[e].sizes.size(); ++s) {
        Rng rng(seed_of(e, s));
        Call call = t[e].make(t[e].sizes[s], rng);
        for (const test::BackendUnderTest& b : test::backends_under_test()) {
          if (b.backend->device() != Device::WEBGPU) continue;
          std::vector<Floats> got = run_on(*b.backend, call);
          CHECK_MESSAGE(bitwise_equal(got, in_cpu_order ? run_on(*cpu, call) : run_on(*b.backend, call)),
                        describe(t[e].kernel, t[e].sizes[s], b.name));
        }
      }
    }
  }

  TEST_CASE("a NaN in the input comes out as NaN on every backend") {
    // Row 1 of each input holds one NaN, in the last partial register of the row (a SIMD max may drop it).
    const int64_t rows = 3, cols = 37;
    Floats x(sz(rows * cols), 0.25f), gamma(sz(cols), 1.f), beta(sz(cols), 0.f);
    for (int64_t c = 0; c < cols; ++c) x[sz(cols + c)] = 0.01f * static_cast<float>(c);
    x[sz(cols + 35)] = kNaN;
    auto row_nan = [&](const Floats& y, int64_t r, int64_t width) {
      bool all = true;
      for (int64_t c = 0; c < width; ++c) all = all && std::isnan(y[sz(r * width + c)]);
      return all;
    };
    auto row_finite = [&](const Floats& y, int64_t r, int64_t width) {
      bool all = true;
      for (int64_t c = 0; c < width; ++c) all = all && std::isfinite(y[sz(r * width + c)]);
      return all;
    };
    for (const test::BackendUnderTest& b : test::backends_under_test()) {
      INFO("backend ", b.name);
      Call sm{{x, Floats(x.size()), Floats(x.size()), Floats(x.size()), gamma, beta, Floats(sz(rows)),
               Floats(sz(rows)), Floats(sz(rows)), Floats(sz(rows))},
              {{0, 36, 5}},
              {}};
      sm.run = [&](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>& ids) {
        be.softmax_forward(f[0], f[1], rows, cols);
        be.log_softmax_forward(f[0], f[2], rows, cols);
        be.layer_norm_forward(f[0], f[4], f[5], f[3], f[6], f[7], rows, cols, 1e-5f);
        be.cross_entropy_forward(f[0], ids[0], f[8], nullptr, rows, cols);
        return Floats{be.all_finite(f[0], sz(rows * cols)) ? 1.f : 0.f,
                      be.all_finite(f[0], sz(cols)) ? 1.f : 0.f};
      };
      std::vector<Floats> out = run_on(*b.backend, sm);
      for (size_t k : {1, 2, 3}) {
        CHECK(row_nan(out[k], 1, cols));
        CHECK(row_finite(out[k], 0, cols));
        CHECK(row_finite(out[k], 2, cols));
      }
      CHECK(std::isnan(out[8][1]));  // the loss of row 1
      CHECK(std::isfinite(out[8][0]));
      CHECK(out[10] == Floats{0.f, 1.f});  // all_finite sees the NaN, and only where it is

      // Attention: one NaN key; under the causal mask only the queries that see it turn NaN.
      AttentionArgs a;
      a.B = 1, a.heads = 1, a.Tq = a.Tk = 5, a.D = 19, a.q_row = a.k_row = a.v_row = a.out_row = 19;
      a.causal = true;
      a.scale = 0.3f;
      Rng rng(9);
      Floats q = normal(rng, 5 * 19), k = normal(rng, 5 * 19), v = normal(rng, 5 * 19);
      k[2 * 19 + 17] = kNaN;
      Call at{{q, k, v, Floats(5 * 19), Floats(25)}, {}, {}};
      at.run = [a](Backend& be, const std::vector<float*>& f, const std::vector<int32_t*>&) {
        be.attention_forward(a, f[0], f[1], f[2], f[3], f[4]);
        return Floats{};
      };
      std::vector<Floats> att = run_on(*b.backend, at);
      for (int64_t i = 0; i < 5; ++i) {
        CHECK(row_nan(att[3], i, 19) == (i >= 2));
        CHECK(row_finite(att[3], i, 19) == (i < 2));
      }
    }
  }

  TEST_CASE("the table covers every kernel of the backend interface") {
    // The kernels as kernels.hpp declares them, but gemm (test_gemm.cpp holds it to the reference).
    std::vector<std::string> kernels;
#define TF_KERNEL_NAME(stem, ret, name, params) \
  if (std::string(#stem) != "gemm") kernels.push_back(#name);
    TF_BACKEND_KERNELS(TF_KERNEL_NAME)
#undef TF_KERNEL_NAME
    REQUIRE(kernels.size() > 20);
    for (const std::string& k : kernels) {
      bool found = false;
      for (const Entry& e : table()) found = found || e.kernel == k;
      CHECK_MESSAGE(found, k, " has no entry in the table");
    }
  }

  TEST_CASE("every backend fills every entry of the kernel table") {
    CHECK_MESSAGE(reference_backend().complete(), "reference");
    for (const test::BackendUnderTest& b : test::backends_under_test())
      CHECK_MESSAGE(b.backend->complete(), b.name);
  }
}
