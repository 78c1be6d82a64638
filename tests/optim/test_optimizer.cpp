// SGD, Adam, AdamW and global-norm clipping against PyTorch 1.13 (fixtures/optim_steps.json, written by
// fixtures/gen_optim_fixtures.py), on the reference kernels and the CPU backend for every instruction set
// this processor has (and CUDA when built); plus the checkpoint state: names, resume, clear errors, and step
// counts kept exact as int64 past float32's 2^24 (float32 counts of older files still load).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "optim/adam.hpp"
#include "optim/clip_grad.hpp"
#include "optim/schedule.hpp"
#include "optim/sgd.hpp"
#include "support/backends.hpp"
#include "support/data_paths.hpp"
#include "util/error.hpp"

using namespace tf;
using nlohmann::json;

namespace {

const json& optim_fixture() {
  static const json j = testing::read_fixture_json("optim_steps.json");
  return j;
}

// Parameters agree with torch to 1e-6 relative; values below 1 in size to 1e-6 absolute (float32 steps that
// cancel leave errors of the size of the terms, not of the result).
void check_close(const std::vector<float>& got, const json& want, const std::string& what) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    double w = want[i].get<double>();
    INFO(what, "[", i, "]: got ", got[i], ", PyTorch ", w);
    CHECK(std::abs(got[i] - w) <= 1e-6 * std::max(std::abs(w), 1.0));
  }
}

// A device and the backend that serves it during one run of a test body.
struct Target {
  std::string name;
  Backend* backend;
  Device device() const { return backend->device(); }
};

std::vector<Target> targets() {
  std::vector<Target> out{{"reference", &reference_backend()}};
  for (const auto& b : test::backends_under_test()) out.push_back({b.name, b.backend});
  return out;
}

// Installs a CPU target's backend for the device for this scope (CUDA targets already serve their device).
class UseBackend {
 public:
  explicit UseBackend(const Target& t) : device_(t.device()), previous_(set_backend(device_, t.backend)) {}
  ~UseBackend() { set_backend(device_, previous_); }
  UseBackend(const UseBackend&) = delete;
  UseBackend& operator=(const UseBackend&) = delete;

 private:
  Device device_;
  Backend* previous_;
};

NamedTensors make_params(const json& init, Device device) {
  NamedTensors params;
  for (const auto& [name, shape] : optim_fixture()["shapes"].items()) {
    Tensor t = Tensor::from_vector(init[name].get<std::vector<float>>(),
                                   Shape(shape.get<std::vector<int64_t>>()), device);
    t.set_requires_grad(true);
    params.emplace_back(name, t);
  }
  return params;
}

std::unique_ptr<Optimizer> make_optimizer(const json& c, NamedTensors params) {
  std::string kind = c["kind"];
  if (kind == "sgd") return std::make_unique<Sgd>(params, c["lr"], c["momentum"], c["weight_decay"]);
  if (kind == "adam")
    return std::make_unique<Adam>(params, c["lr"], c["beta1"], c["beta2"], c["eps"], c["weight_decay"]);
  REQUIRE(kind == "adamw");
  return std::make_unique<AdamW>(params, c["lr"], c["beta1"], c["beta2"], c["eps"], c["weight_decay"]);
}

// Sets each parameter's gradient from the fixture row (null: no gradient this step).
void set_grads(const NamedTensors& params, const json& row) {
  for (const auto& [name, p] : params) {
    if (row[name].is_null())
      p.set_grad(Tensor());
    else
      p.set_grad(Tensor::from_vector(row[name].get<std::vector<float>>(), p.shape(), p.device()));
  }
}

// Runs a fixture case for `steps` steps and checks every parameter after each step.
void run_case(const std::string& case_name, const Target& target) {
  const json& c = optim_fixture()["cases"][case_name];
  NamedTensors params = make_params(c["init"], target.device());
  std::unique_ptr<Optimizer> opt = make_optimizer(c["config"], params);
  std::unique_ptr<Schedule> sched;
  if (c["config"].contains("onecycle")) {
    const json& o = c["config"]["onecycle"];
    OneCycleOptions options;
    options.pct_start = o["pct_start"];
    sched = std::make_unique<OneCycle>(o["max_lr"], o["total_steps"], options);
  }
  for (size_t s = 0; s < c["grads"].size(); ++s) {
    set_grads(params, c["grads"][s]);
    if (sched) apply_schedule(*sched, static_cast<int64_t>(s), *opt);
    opt->apply_gradients();
    for (const auto& [name, p] : params)
      check_close(p.to_vector(), c["after"][s][name], case_name + " step " + std::to_string(s) + " " + name);
  }
  CHECK(opt->steps() == static_cast<int64_t>(c["grads"].size()));
}

// Adam over the fixture's parameters, after a step with the fixture's first gradients.
std::unique_ptr<Adam> adam_after_one_step(const NamedTensors& params) {
  auto opt = std::make_unique<Adam>(params);
  set_grads(params, optim_fixture()["cases"]["adam"]["grads"][0]);
  opt->apply_gradients();
  return opt;
}

std::map<std::string, std::vector<float>> snapshot(const NamedTensors& params) {
  std::map<std::string, std::vector<float>> out;
  for (const auto& [name, p] : params) out[name] = p.to_vector();
  return out;
}

NamedTensors clone_all_params(const NamedTensors& ts) {
  NamedTensors out;
  for (const auto& [name, t] : ts) out.emplace_back(name, t.clone());
  return out;
}

OptimizerState clone_all(const OptimizerState& state) {
  OptimizerState out{state.counts, {}};
  for (const auto& [name, t] : state.slots) out.slots.emplace_back(name, t.clone());
  return out;
}

// The named entry of a state's slots or counts.
template <class Named>
auto& entry(Named& entries, const std::string& name) {
  for (auto& [n, value] : entries)
    if (n == name) return value;
  FAIL("no entry ", name);
  throw;
}

Tensor state_entry(const Optimizer& opt, const std::string& name) {
  OptimizerState s = opt.state();
  return entry(s.slots, name);
}

int64_t state_count(const Optimizer& opt, const std::string& name) {
  OptimizerState s = opt.state();
  return entry(s.counts, name);
}

// The state with its counts as files from before int64 counts stored them: float32 tensors of one number.
OptimizerState with_float_counts(OptimizerState state) {
  for (const auto& [name, n] : state.counts)
    state.slots.emplace_back(name, Tensor::from_vector({static_cast<float>(n)}, Shape{1}));
  state.counts.clear();
  return state;
}

}  // namespace

TEST_SUITE("optimizer") {
  TEST_CASE("SGD, Adam and AdamW steps match PyTorch on every backend") {
    for (const Target& t : targets()) {
      UseBackend use(t);
      for (const auto& item : optim_fixture()["cases"].items()) {
        std::string case_name = item.key();  // a named copy: clang's INFO cannot capture a structured binding
        INFO("backend ", t.name, ", case ", case_name);
        run_case(case_name, t);
      }
    }
  }

  TEST_CASE("clip_grad_norm matches PyTorch's clip_grad_norm_") {
    const json& clip = optim_fixture()["clip"];
    for (const Target& t : targets()) {
      UseBackend use(t);
      INFO("backend ", t.name);
      int clipped_steps = 0;
      for (const json& step : clip["steps"]) {
        NamedTensors params = make_params(step["grads"], t.device());
        set_grads(params, step["grads"]);
        float total = clip_grad_norm(params, clip["max_norm"].get<float>());
        CHECK(total == doctest::Approx(step["total_norm"].get<double>()).epsilon(1e-6));
        for (const auto& [name, p] : params)
          check_close(p.grad().to_vector(), step["clipped"][name], "clipped " + name);
        clipped_steps += total > clip["max_norm"].get<float>();
      }
      CHECK(clipped_steps > 0);  // the fixture exercises both branches
      CHECK(clipped_steps < static_cast<int>(clip["steps"].size()));
    }
  }

  TEST_CASE("clip_grad_norm ignores parameters without a gradient and returns 0 when none has one") {
    Tensor a = Tensor::from_vector({3, 4}, Shape{2}), b = Tensor::from_vector({100}, Shape{1});
    a.set_grad(Tensor::from_vector({3, 4}, Shape{2}));
    CHECK(clip_grad_norm(std::vector<Tensor>{a, b}, 1.f) == doctest::Approx(5.0));
    std::vector<float> g = a.grad().to_vector();
    CHECK(g[0] == doctest::Approx(3.0 / (5.0 + 1e-6)));
    CHECK_FALSE(b.grad().defined());
    a.set_grad(Tensor());
    CHECK(clip_grad_norm(std::vector<Tensor>{a, b}, 1.f) == 0.f);
  }

  TEST_CASE("grad_norm is the norm without clipping; a non-finite norm leaves the gradients alone") {
    Tensor a = Tensor::from_vector({3, 4}, Shape{2});
    a.set_grad(Tensor::from_vector({3, 4}, Shape{2}));
    NamedTensors named = {{"a", a}};
    CHECK(grad_norm(named) == doctest::Approx(5.0));
    CHECK(a.grad().to_vector() == std::vector<float>{3, 4});
    for (float bad : {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
      CAPTURE(bad);
      a.set_grad(Tensor::from_vector({bad, 4}, Shape{2}));
      CHECK_FALSE(std::isfinite(grad_norm(named)));
      CHECK_FALSE(std::isfinite(clip_grad_norm(named, 1.f)));
      CHECK(a.grad().to_vector()[1] == 4.f);  // not scaled by 1 / inf (which would give 0 * inf = NaN)
    }
  }

  TEST_CASE("zero_grad drops gradients and a step without gradients changes nothing") {
    NamedTensors params = make_params(optim_fixture()["cases"]["adam"]["init"], Device::CPU);
    Adam opt(params, 0.1f);
    set_grads(params, optim_fixture()["cases"]["adam"]["grads"][0]);
    opt.zero_grad();
    for (const auto& [name, p] : params) CHECK_FALSE(p.grad().defined());
    auto before = snapshot(params);
    opt.apply_gradients();
    CHECK(snapshot(params) == before);
    CHECK(opt.steps() == 1);
    CHECK(state_count(opt, "optim.step.w") == 0);  // the parameter itself took no step
  }

  TEST_CASE("AdamW defaults to PyTorch's weight decay of 0.01, Adam to none") {
    NamedTensors params = make_params(optim_fixture()["cases"]["adam"]["init"], Device::CPU);
    CHECK(AdamW(params).weight_decay() == 0.01f);
    CHECK(Adam(params).weight_decay() == 0.f);
  }

  TEST_CASE("state names are stable and resuming from exported state continues the same run") {
    // float_counts: the counts as float32 tensors among the slots, as files from before int64 counts hold
    // them
    for (std::string case_name : {"adam_l2", "sgd_momentum_wd"})
      for (bool float_counts : {false, true}) {
        INFO("case ", case_name, float_counts ? " from float32 counts" : "");
        const json& c = optim_fixture()["cases"][case_name];
        NamedTensors params = make_params(c["init"], Device::CPU);
        auto opt = make_optimizer(c["config"], params);
        size_t half = c["grads"].size() / 2;
        for (size_t s = 0; s < half; ++s) {
          set_grads(params, c["grads"][s]);
          opt->apply_gradients();
        }
        OptimizerState saved = clone_all(opt->state());
        NamedTensors resumed_params = clone_all_params(params);
        auto resumed = make_optimizer(c["config"], resumed_params);
        resumed->load_state(float_counts ? with_float_counts(saved) : saved);
        CHECK(resumed->steps() == static_cast<int64_t>(half));
        CHECK(resumed->state().counts == saved.counts);
        for (size_t s = half; s < c["grads"].size(); ++s) {
          set_grads(params, c["grads"][s]);
          set_grads(resumed_params, c["grads"][s]);
          opt->apply_gradients();
          resumed->apply_gradients();
        }
        CHECK(snapshot(resumed_params) == snapshot(params));
        for (const auto& [name, p] : resumed_params)
          check_close(p.to_vector(), c["after"].back()[name], name);
      }
  }

  TEST_CASE("Adam's state holds the documented names") {
    NamedTensors params = make_params(optim_fixture()["cases"]["adam"]["init"], Device::CPU);
    std::unique_ptr<Adam> adam = adam_after_one_step(params);
    Adam& opt = *adam;
    std::vector<std::string> names;
    for (const auto& [name, n] : opt.state().counts) names.push_back(name);
    for (const auto& [name, t] : opt.state().slots) names.push_back(name);
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"optim.exp_avg.b", "optim.exp_avg.w", "optim.exp_avg_sq.b",
                                            "optim.exp_avg_sq.w", "optim.step.b", "optim.step.w",
                                            "optim.steps"});
    CHECK(state_entry(opt, "optim.exp_avg.w").shape() == Shape({2, 3}));
    CHECK(state_count(opt, "optim.steps") == 1);
  }

  TEST_CASE("load_state rejects unknown, missing and misshapen entries") {
    NamedTensors params = make_params(optim_fixture()["cases"]["adam"]["init"], Device::CPU);
    std::unique_ptr<Adam> adam = adam_after_one_step(params);
    Adam& opt = *adam;
    OptimizerState good = clone_all(opt.state());

    OptimizerState wrong_shape = good;
    entry(wrong_shape.slots, "optim.exp_avg.w") = Tensor::zeros(Shape{6});
    CHECK_THROWS_WITH_AS(opt.load_state(wrong_shape), doctest::Contains("optim.exp_avg.w' has shape"), Error);

    OptimizerState missing{good.counts, {}};
    for (const auto& e : good.slots)
      if (e.first != "optim.exp_avg_sq.w") missing.slots.push_back(e);
    CHECK_THROWS_WITH_AS(opt.load_state(missing), doctest::Contains("no 'optim.exp_avg_sq.w'"), Error);

    OptimizerState unknown = good;
    unknown.slots.emplace_back("optim.exp_avg.head", Tensor::zeros(Shape{1}));
    CHECK_THROWS_WITH_AS(opt.load_state(unknown), doctest::Contains("optim.exp_avg.head"), Error);

    Sgd sgd(params, 0.1f, 0.9f);
    sgd.apply_gradients();
    CHECK_THROWS_WITH_AS(opt.load_state(sgd.state()), doctest::Contains("optim.momentum_buffer"), Error);

    OptimizerState bad_count = with_float_counts(good);  // an older file's float32 count that is no count
    entry(bad_count.slots, "optim.steps") = Tensor::scalar(1.5f);
    CHECK_THROWS_WITH_AS(opt.load_state(bad_count), doctest::Contains("step count"), Error);

    OptimizerState negative = good;
    entry(negative.counts, "optim.step.b") = -1;
    CHECK_THROWS_WITH_AS(opt.load_state(negative), doctest::Contains("'optim.step.b' should be a step count"),
                         Error);

    OptimizerState no_count = good;
    no_count.counts.erase(no_count.counts.begin());
    CHECK_THROWS_WITH_AS(opt.load_state(no_count), doctest::Contains("no 'optim.steps'"), Error);

    OptimizerState twice = good;  // the same count as an integer and as an older file's float32 tensor
    twice.slots.emplace_back("optim.steps", Tensor::ones(Shape{1}));
    CHECK_THROWS_WITH_AS(opt.load_state(twice), doctest::Contains("'optim.steps' appears twice"), Error);

    OptimizerState slot_as_count = good;
    slot_as_count.counts.emplace_back("optim.exp_avg.w", 3);
    CHECK_THROWS_WITH_AS(opt.load_state(slot_as_count), doctest::Contains("is a tensor, not a step count"),
                         Error);

    // A failed load leaves the optimizer as it was.
    CHECK(opt.steps() == 1);
    CHECK(state_entry(opt, "optim.exp_avg.w").to_vector() ==
          entry(good.slots, "optim.exp_avg.w").to_vector());
  }

  TEST_CASE("step counts are exact int64 past float32's 2^24 and go on counting from there") {
    NamedTensors params = make_params(optim_fixture()["cases"]["adam"]["init"], Device::CPU);
    std::unique_ptr<Adam> adam = adam_after_one_step(params);
    Adam& opt = *adam;
    const int64_t big = (int64_t{1} << 40) + 3;  // float32 would store 2^40
    REQUIRE(static_cast<int64_t>(static_cast<float>(big)) != big);
    OptimizerState state = clone_all(opt.state());
    entry(state.counts, "optim.steps") = big;
    entry(state.counts, "optim.step.w") = big - 1;
    opt.load_state(state);
    CHECK(opt.steps() == big);
    CHECK(state_count(opt, "optim.step.w") == big - 1);
    set_grads(params, optim_fixture()["cases"]["adam"]["grads"][1]);
    opt.apply_gradients();
    CHECK(opt.steps() == big + 1);
    CHECK(state_count(opt, "optim.steps") == big + 1);
    CHECK(state_count(opt, "optim.step.w") == big);
  }

  TEST_CASE("optimizers reject bad hyperparameters and parameter lists") {
    NamedTensors params = make_params(optim_fixture()["cases"]["adam"]["init"], Device::CPU);
    CHECK_THROWS_AS(Adam(params, 1e-3f, 1.0f), Error);
    CHECK_THROWS_AS(Sgd(params, -1.f), Error);
    CHECK_THROWS_AS(Adam(NamedTensors{}), Error);
    NamedTensors twice = params;
    twice.push_back(params[0]);
    CHECK_THROWS_WITH_AS(Sgd{twice}, doctest::Contains("appears twice"), Error);
  }
}
