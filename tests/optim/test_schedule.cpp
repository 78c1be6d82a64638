// Learning-rate schedules against PyTorch 1.13 (fixtures/schedules.json, written by
// fixtures/gen_optim_fixtures.py): OneCycleLR's lr and cycled beta1, including the sorter's setting, and the
// warm-up + cosine schedule against torch's LambdaLR + CosineAnnealingLR; and how a schedule drives an
// optimizer.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "optim/adam.hpp"
#include "optim/schedule.hpp"
#include "optim/sgd.hpp"
#include "support/data_paths.hpp"
#include "util/error.hpp"

using namespace tf;
using nlohmann::json;

namespace {

const json& schedule_fixture() {
  static const json j = testing::read_fixture_json("schedules.json");
  return j;
}

// Schedules return float: within 1e-7 of torch's double, relative (exact zeros must be exact).
void check_value(float got, double want, const std::string& what) {
  INFO(what, ": got ", got, ", PyTorch ", want);
  CHECK(std::abs(got - want) <= 1e-7 * std::abs(want));
}

NamedTensors one_param() {
  Tensor p = Tensor::zeros(Shape{3});
  p.set_requires_grad(true);
  return {{"p", p}};
}

}  // namespace

TEST_SUITE("schedule") {
  TEST_CASE("OneCycle's lr and beta1 match PyTorch's OneCycleLR") {
    for (const json& f : schedule_fixture()["onecycle"]) {
      OneCycleOptions o;
      o.pct_start = f["pct_start"];
      OneCycle sched(f["max_lr"], f["total_steps"], o);
      std::string config = "max_lr " + f["max_lr"].dump() + ", total " + f["total_steps"].dump() +
                           ", pct_start " + f["pct_start"].dump();
      for (size_t i = 0; i < f["steps"].size(); ++i) {
        int64_t step = f["steps"][i];
        std::string what = config + ", step " + std::to_string(step);
        check_value(sched.lr(step), f["lr"][i], what + " lr");
        REQUIRE(sched.beta1(step).has_value());
        check_value(*sched.beta1(step), f["beta1"][i], what + " beta1");
      }
    }
  }

  TEST_CASE("OneCycle starts at max_lr / 25 with beta1 0.95 and refuses steps past its end") {
    OneCycle sched(1e-3, 1200, {0.1});
    CHECK(sched.lr(0) == doctest::Approx(1e-3 / 25).epsilon(1e-6));
    CHECK(*sched.beta1(0) == doctest::Approx(0.95));
    CHECK_NOTHROW(sched.lr(1200));  // torch allows exactly total_steps scheduler steps
    CHECK_THROWS_AS(sched.lr(1201), Error);
    CHECK_THROWS_AS(OneCycle(1e-3, 10, {0.1}), Error);  // a rising phase of zero length
    OneCycleOptions fixed;
    fixed.cycle_momentum = false;
    CHECK_FALSE(OneCycle(1e-3, 100, fixed).beta1(5).has_value());
  }

  TEST_CASE("WarmupCosine matches torch's linear warm-up then CosineAnnealingLR and holds min_lr after") {
    for (const json& f : schedule_fixture()["warmup_cosine"]) {
      WarmupCosine sched(f["peak"], f["warmup"], f["total"], f["min_lr"]);
      int64_t total = f["total"];
      for (int64_t s = 0; s <= total; ++s)
        check_value(sched.lr(s), f["lr"][static_cast<size_t>(s)],
                    "warmup " + f["warmup"].dump() + " step " + std::to_string(s));
      CHECK(sched.lr(total + 1) == static_cast<float>(f["min_lr"].get<double>()));
      CHECK(sched.lr(10 * total) == static_cast<float>(f["min_lr"].get<double>()));
      CHECK_FALSE(sched.beta1(3).has_value());
    }
    CHECK_THROWS_AS(WarmupCosine(1e-3, 10, 10), Error);
  }

  TEST_CASE("a constant schedule keeps its lr and leaves beta1 alone") {
    ConstantSchedule sched(3e-4f);
    NamedTensors params = one_param();
    Adam opt(params, 1e-3f, 0.8f);
    apply_schedule(sched, 500, opt);
    CHECK(opt.lr() == 3e-4f);
    CHECK(opt.beta1() == 0.8f);
  }

  TEST_CASE("apply_schedule sets lr and the cycled beta1 on Adam, and the momentum on SGD") {
    OneCycle sched(0.01, 30, {0.3});
    NamedTensors params = one_param();
    AdamW adamw(params);
    Sgd sgd(params, 0.1f, 0.9f);
    for (int64_t s : {0, 4, 8, 20, 30}) {
      apply_schedule(sched, s, adamw);
      apply_schedule(sched, s, sgd);
      CHECK(adamw.lr() == sched.lr(s));
      CHECK(adamw.beta1() == *sched.beta1(s));
      CHECK(sgd.lr() == sched.lr(s));
      CHECK(sgd.momentum() == *sched.beta1(s));
    }
  }
}
