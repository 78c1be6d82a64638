// Finite-difference gradient check of every differentiable op in ops/ops.hpp. The loss is
// sum_k sum(out_k * R_k) with fixed random weights R_k, so every output element's gradient matters. The
// analytic gradient comes from backward(); the numeric one from central differences of that loss, summed on
// the host in double so float rounding of the sum does not drown the difference. A wrong backward (a missing
// factor, a wrong sign, a transposed index, a dropped mask) is off by O(1); float32 forward noise over a
// step of 1e-2 used at most a twentieth of the tolerance when it was set. The whole list runs on the CPU
// backend, again with the reference backend installed, and on the WebGPU device when one was handed in (the
// browser test build: its reads await the GPU through Asyncify). Cases build their leaves on the CPU; the
// check moves them to the device under test, and a case's other tensors follow its first input's device.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "autograd/node.hpp"
#include "backend/backend.hpp"
#include "ops/ops.hpp"
#include "support/backends.hpp"
#include "util/rng.hpp"

using namespace tf;

namespace {

using Inputs = std::vector<Tensor>;
using Outputs = std::vector<Tensor>;

struct GradCase {
  std::string name;
  std::function<Inputs(Rng&)> inputs;  // leaves; those that require grad are checked
  std::function<Outputs(const Inputs&)> f;
};

Tensor param(Rng& rng, const Shape& s, float scale = 1.f, float shift = 0.f) {
  std::vector<float> v(static_cast<size_t>(s.numel()));
  for (float& x : v) x = shift + scale * rng.normal();
  Tensor t = Tensor::from_vector(v, s);
  t.set_requires_grad(true);
  return t;
}
Tensor constant(Rng& rng, const Shape& s) {
  std::vector<float> v(static_cast<size_t>(s.numel()));
  for (float& x : v) x = rng.normal();
  return Tensor::from_vector(v, s);
}

// sum_k sum(out_k * R_k), in double on the host.
double host_loss(const Outputs& outs, const std::vector<std::vector<float>>& R) {
  double l = 0;
  for (size_t k = 0; k < outs.size(); ++k) {
    std::vector<float> o = outs[k].to_vector();
    for (size_t i = 0; i < o.size(); ++i) l += static_cast<double>(o[i]) * R[k][i];
  }
  return l;
}

constexpr float kStep = 1e-2f;
constexpr double kAtol = 1e-3, kRtol = 2e-3;
constexpr int64_t kMaxProbes = 24;  // elements probed per input (all of them when fewer)

// The case's leaves as new leaves on `device`: moved first, then marked, so the gradient lands on the device.
Inputs on_device(const Inputs& leaves, Device device) {
  Inputs out;
  for (const Tensor& t : leaves) {
    Tensor moved = t.detach().to(device);
    if (t.requires_grad()) moved.set_requires_grad(true);
    out.push_back(moved);
  }
  return out;
}

// Overwrites element e of t in place through its backend (the tensor may live in device memory).
void set_element(const Tensor& t, int64_t e, float value) {
  backend_for(t.device()).copy_from_host(t.data() + e, &value, sizeof value);
}

// Messages for every probed element whose analytic and numeric gradients disagree.
std::vector<std::string> gradcheck(const GradCase& c, uint64_t seed, Device device = Device::CPU) {
  Rng rng(seed);
  Inputs in = on_device(c.inputs(rng), device);
  Outputs outs = c.f(in);
  std::vector<std::vector<float>> R;
  Tensor loss;
  for (const Tensor& o : outs) {
    Tensor r = constant(rng, o.shape()).to(o.device());
    R.push_back(r.to_vector());
    Tensor term = sum(mul(o, r));
    loss = loss.defined() ? add(loss, term) : term;
  }
  loss.backward();
  std::vector<std::string> failures;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!in[i].requires_grad()) continue;
    Tensor g = in[i].grad();
    if (!g.defined()) {
      failures.push_back(c.name + ": input " + std::to_string(i) + " got no gradient");
      continue;
    }
    if (g.device() != device)
      failures.push_back(c.name + ": input " + std::to_string(i) + "'s gradient is on " +
                         device_name(g.device()) + ", not " + device_name(device));
    std::vector<float> analytic = g.to_vector();
    int64_t n = in[i].numel();
    std::vector<float> x = in[i].to_vector();
    for (int64_t p = 0; p < std::min(n, kMaxProbes); ++p) {
      int64_t e = n <= kMaxProbes ? p : rng.below(n);
      float keep = x[static_cast<size_t>(e)], up = keep + kStep, down = keep - kStep;
      NoGrad no_grad;
      set_element(in[i], e, up);
      double lu = host_loss(c.f(in), R);
      set_element(in[i], e, down);
      double ld = host_loss(c.f(in), R);
      set_element(in[i], e, keep);
      double numeric = (lu - ld) / (static_cast<double>(up) - static_cast<double>(down));
      double a = analytic[static_cast<size_t>(e)];
      if (!(std::fabs(numeric - a) <= kAtol + kRtol * std::fabs(a)))
        failures.push_back(c.name + ": d/d input " + std::to_string(i) + "[" + std::to_string(e) +
                           "] analytic " + std::to_string(a) + ", numeric " + std::to_string(numeric));
    }
  }
  return failures;
}

std::vector<GradCase> arithmetic_cases() {
  std::vector<GradCase> v;
  struct Pair {
    const char* name;
    Shape a, b;
  };
  for (Pair p : {Pair{"same shape", {2, 3, 4}, {2, 3, 4}}, Pair{"b a row (bias)", {2, 3, 5}, {5}},
                 Pair{"both broadcast", {2, 1, 4}, {3, 1}}, Pair{"b a scalar", {3, 4}, {}},
                 Pair{"a broadcast along a middle dim", {2, 1, 3}, {2, 4, 3}}}) {
    for (int op = 0; op < 3; ++op) {
      const char* names[] = {"add", "sub", "mul"};
      v.push_back({std::string(names[op]) + ", " + p.name,
                   [p](Rng& rng) {
                     return Inputs{param(rng, p.a), param(rng, p.b)};
                   },
                   [op](const Inputs& x) {
                     return Outputs{op == 0 ? add(x[0], x[1]) : op == 1 ? sub(x[0], x[1]) : mul(x[0], x[1])};
                   }});
    }
  }
  v.push_back({"scale",
               [](Rng& rng) {
                 return Inputs{param(rng, {3, 7})};
               },
               [](const Inputs& x) { return Outputs{scale(x[0], -1.7f)}; }});
  v.push_back({"sum",
               [](Rng& rng) {
                 return Inputs{param(rng, {4, 5})};
               },
               [](const Inputs& x) { return Outputs{sum(x[0])}; }});
  v.push_back({"mean",
               [](Rng& rng) {
                 return Inputs{param(rng, {4, 5})};
               },
               [](const Inputs& x) { return Outputs{mean(x[0])}; }});
  return v;
}

std::vector<GradCase> shape_cases() {
  std::vector<GradCase> v;
  v.push_back({"reshape",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 3, 4})};
               },
               [](const Inputs& x) {
                 return Outputs{mul(reshape(x[0], Shape{6, 4}), reshape(x[0], Shape{6, 4}))};
               }});
  v.push_back({"permute (heads)",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 3, 4, 5})};
               },
               [](const Inputs& x) {
                 return Outputs{permute(x[0], {0, 2, 1, 3})};
               }});
  v.push_back({"permute (all axes)",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 3, 4, 5})};
               },
               [](const Inputs& x) {
                 return Outputs{permute(x[0], {3, 1, 0, 2})};
               }});
  v.push_back({"transpose",
               [](Rng& rng) {
                 return Inputs{param(rng, {3, 4, 5})};
               },
               [](const Inputs& x) { return Outputs{transpose(x[0], -1, -2)}; }});
  v.push_back({"narrow (middle axis)",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 6, 3})};
               },
               [](const Inputs& x) { return Outputs{narrow(x[0], 1, 2, 3)}; }});
  v.push_back({"narrow (last axis)",
               [](Rng& rng) {
                 return Inputs{param(rng, {3, 9})};
               },
               [](const Inputs& x) { return Outputs{narrow(x[0], -1, 4, 5)}; }});
  v.push_back({"concat (last axis)",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 3}), param(rng, {2, 5}), param(rng, {2, 1})};
               },
               [](const Inputs& x) {
                 return Outputs{concat({x[0], x[1], x[2]}, -1)};
               }});
  v.push_back({"concat (first axis)",
               [](Rng& rng) {
                 return Inputs{param(rng, {1, 3, 2}), param(rng, {3, 3, 2})};
               },
               [](const Inputs& x) {
                 return Outputs{concat({x[0], x[1]}, 0)};
               }});
  v.push_back({"split",
               [](Rng& rng) {
                 return Inputs{param(rng, {3, 10})};
               },
               [](const Inputs& x) {
                 return split(x[0], 1, {2, 5, 3});
               }});
  return v;
}

std::vector<GradCase> matmul_cases() {
  std::vector<GradCase> v;
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) {
      v.push_back({"matmul batched, trans_a " + std::to_string(ta) + ", trans_b " + std::to_string(tb),
                   [ta, tb](Rng& rng) {
                     Shape a = ta ? Shape{2, 5, 3} : Shape{2, 3, 5}, b = tb ? Shape{2, 4, 5} : Shape{2, 5, 4};
                     return Inputs{param(rng, a), param(rng, b)};
                   },
                   [ta, tb](const Inputs& x) { return Outputs{matmul(x[0], x[1], ta != 0, tb != 0)}; }});
    }
  v.push_back({"matmul 4-D",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 2, 3, 4}), param(rng, {2, 2, 4, 3})};
               },
               [](const Inputs& x) { return Outputs{matmul(x[0], x[1])}; }});
  for (int tb = 0; tb < 2; ++tb)
    v.push_back({"matmul with a shared 2-D b, trans_b " + std::to_string(tb),
                 [tb](Rng& rng) {
                   return Inputs{param(rng, {2, 3, 5}), param(rng, tb ? Shape{4, 5} : Shape{5, 4})};
                 },
                 [tb](const Inputs& x) { return Outputs{matmul(x[0], x[1], false, tb != 0)}; }});
  v.push_back({"linear with bias",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 3, 6}), param(rng, {5, 6}), param(rng, {5})};
               },
               [](const Inputs& x) { return Outputs{linear(x[0], x[1], x[2])}; }});
  v.push_back({"linear without bias",
               [](Rng& rng) {
                 return Inputs{param(rng, {4, 6}), param(rng, {3, 6})};
               },
               [](const Inputs& x) { return Outputs{linear(x[0], x[1])}; }});
  return v;
}

std::vector<GradCase> layer_cases() {
  std::vector<GradCase> v;
  v.push_back({"embedding (repeated ids)",
               [](Rng& rng) {
                 return Inputs{param(rng, {6, 5})};
               },
               [](const Inputs& x) {
                 Ids ids({1, 4, 1, 0, 5, 4, 4}, Shape{7});
                 return Outputs{embedding(x[0], ids)};
               }});
  v.push_back({"layer_norm",
               [](Rng& rng) {
                 return Inputs{param(rng, {4, 7}, 1.5f, 0.3f), param(rng, {7}), param(rng, {7})};
               },
               [](const Inputs& x) { return Outputs{layer_norm(x[0], x[1], x[2])}; }});
  v.push_back({"gelu (erf)",
               [](Rng& rng) {
                 return Inputs{param(rng, {3, 9}, 2.f)};
               },
               [](const Inputs& x) { return Outputs{gelu(x[0], GeluMode::Erf)}; }});
  v.push_back({"gelu (tanh)",
               [](Rng& rng) {
                 return Inputs{param(rng, {3, 9}, 2.f)};
               },
               [](const Inputs& x) { return Outputs{gelu(x[0], GeluMode::Tanh)}; }});
  v.push_back({"softmax",
               [](Rng& rng) {
                 return Inputs{param(rng, {3, 7}, 2.f)};
               },
               [](const Inputs& x) { return Outputs{softmax(x[0])}; }});
  v.push_back({"log_softmax",
               [](Rng& rng) {
                 return Inputs{param(rng, {3, 7}, 2.f)};
               },
               [](const Inputs& x) { return Outputs{log_softmax(x[0])}; }});
  v.push_back(
      {"masked_fill (broadcast causal mask)",
       [](Rng& rng) {
         return Inputs{param(rng, {2, 3, 4, 4})};
       },
       [](const Inputs& x) { return Outputs{masked_fill(x[0], causal_mask(4, x[0].device()), 0.5f)}; }});
  v.push_back({"softmax of masked_fill with -inf",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 5, 5})};
               },
               [](const Inputs& x) {
                 return Outputs{softmax(masked_fill(x[0], causal_mask(5, x[0].device()), -INFINITY))};
               }});
  v.push_back({"cross_entropy (mean)",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 3, 6}, 2.f)};
               },
               [](const Inputs& x) {
                 Ids t({0, 5, 2, 2, 1, 3}, Shape{2, 3});
                 return Outputs{cross_entropy(x[0], t)};
               }});
  v.push_back({"cross_entropy (row weights)",
               [](Rng& rng) {
                 return Inputs{param(rng, {5, 4}, 2.f)};
               },
               [](const Inputs& x) {
                 Ids t({3, 0, 1, 1, 2}, Shape{5});
                 Tensor w = Tensor::from_vector({0.5f, 0.f, 2.f, 0.25f, 1.f}, Shape{5}, x[0].device());
                 return Outputs{cross_entropy(x[0], t, w)};
               }});
  v.push_back({"rotary (all columns)",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 5, 8})};
               },
               [](const Inputs& x) { return Outputs{rotary(x[0], 4, -1, 3)}; }});
  v.push_back({"rotary (partial rotate_cols)",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 4, 12})};
               },
               [](const Inputs& x) { return Outputs{rotary(x[0], 4, 8)}; }});
  return v;
}

std::vector<GradCase> attention_cases() {
  std::vector<GradCase> v;
  v.push_back({"attention causal, separate q, k, v",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 5, 8}), param(rng, {2, 5, 8}), param(rng, {2, 5, 8})};
               },
               [](const Inputs& x) {
                 AttentionOptions o;
                 o.causal = true;
                 return Outputs{attention(x[0], x[1], x[2], 2, o)};
               }});
  v.push_back({"attention packed qkv columns",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 4, 18})};
               },
               [](const Inputs& x) {
                 AttentionOptions o;
                 o.causal = true;
                 return Outputs{attention(Cols(x[0], 0, 6), Cols(x[0], 6, 6), Cols(x[0], 12, 6), 3, o)};
               }});
  v.push_back({"attention key padding",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 5, 6}), param(rng, {2, 5, 6}), param(rng, {2, 5, 6})};
               },
               [](const Inputs& x) {
                 AttentionOptions o;
                 o.key_keep = Tensor::from_vector({1, 1, 0, 1, 0, 1, 1, 1, 1, 0}, Shape{2, 5}, x[0].device());
                 return Outputs{attention(x[0], x[1], x[2], 2, o)};
               }});
  v.push_back({"attention cross (Tq != Tk)",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 3, 8}), param(rng, {2, 6, 8}), param(rng, {2, 6, 8})};
               },
               [](const Inputs& x) { return Outputs{attention(x[0], x[1], x[2], 2)}; }});
  v.push_back({"attention causal with a query offset (KV cache)",
               [](Rng& rng) {
                 return Inputs{param(rng, {1, 2, 4}), param(rng, {1, 5, 4}), param(rng, {1, 5, 4})};
               },
               [](const Inputs& x) {
                 AttentionOptions o;
                 o.causal = true;
                 o.q_offset = 3;
                 return Outputs{attention(x[0], x[1], x[2], 1, o)};
               }});
  v.push_back({"attention(x, x, x) overlapping operands",
               [](Rng& rng) {
                 return Inputs{param(rng, {2, 4, 6})};
               },
               [](const Inputs& x) {
                 AttentionOptions o;
                 o.causal = true;
                 return Outputs{attention(x[0], x[0], x[0], 2, o)};
               }});
  v.push_back({"attention with a custom scale, weights kept",
               [](Rng& rng) {
                 return Inputs{param(rng, {1, 4, 4}), param(rng, {1, 4, 4}), param(rng, {1, 4, 4})};
               },
               [](const Inputs& x) {
                 AttentionOptions o;
                 o.scale = 0.9f;
                 Tensor w;  // asking for the (detached) weights must not change the gradient of out
                 return Outputs{attention(x[0], x[1], x[2], 1, o, &w)};
               }});
  return v;
}

std::vector<GradCase> all_cases() {
  std::vector<GradCase> all;
  for (auto part : {arithmetic_cases(), shape_cases(), matmul_cases(), layer_cases(), attention_cases()})
    for (GradCase& c : part) all.push_back(c);
  return all;
}

void check_all(Device device = Device::CPU) {
  std::vector<GradCase> cases = all_cases();
  for (size_t i = 0; i < cases.size(); ++i) {
    std::vector<std::string> failures = gradcheck(cases[i], 100 + i, device);
    std::string all;
    for (const std::string& f : failures) all += "\n  " + f;
    CHECK_MESSAGE(failures.empty(), cases[i].name, ":", all);
  }
}

// x * x whose recorded backward claims 3x instead of 2x.
Tensor wrong_square(const Tensor& x) {
  Tensor y;
  {
    NoGrad no_grad;
    y = mul(x, x);
  }
  Tensor sx = x.detach();
  record(y, "wrong_square", {x},
         [sx](const Tensor& g) -> std::vector<Tensor> { return {mul(scale(sx, 3.f), g)}; });
  return y;
}

}  // namespace

TEST_SUITE("gradcheck") {
  TEST_CASE("every op's backward matches central differences on the CPU backend") { check_all(); }

  TEST_CASE("every op's backward matches central differences on the reference backend") {
    Backend* previous = set_backend(Device::CPU, &reference_backend());
    check_all();
    set_backend(Device::CPU, previous);
  }

  TEST_CASE("every op's backward matches central differences on the WebGPU backend") {
    std::string skip = test::webgpu_skip_reason();
    if (!skip.empty()) {
      MESSAGE(skip);
      return;
    }
    check_all(Device::WEBGPU);
  }

  TEST_CASE("the check catches a backward that is off by half") {
    GradCase wrong{"wrong square", [](Rng& rng) { return Inputs{param(rng, {12})}; },
                   [](const Inputs& x) { return Outputs{wrong_square(x[0])}; }};
    CHECK(gradcheck(wrong, 1).size() >= 10);
  }
}
