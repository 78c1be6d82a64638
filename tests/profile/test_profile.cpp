// The profiler (core/profile/): a training step's kernels are all in the profile, forward and backward
// work land in their own columns, the times fit inside the wall time they were measured in, reset clears,
// stop puts the backend back, and the JSON and the table carry the figures.
#include <doctest/doctest.h>

#include <chrono>
#include <set>

#include "autograd/node.hpp"
#include "backend/backend.hpp"
#include "profile/profile.hpp"
#include "train/trainer.hpp"

using namespace tf;

namespace {

std::unique_ptr<Trainer> toy_trainer() {
  TrainConfig c = TrainConfig::for_task("toy");  // MyTransformer(14, 32, 1, 1), diffusion loss, Adam
  c.steps = 10;
  return std::make_unique<Trainer>(c, make_task(c));
}

const StemTime* stem(const Profile& p, const std::string& name) {
  for (const StemTime& s : p.stems)
    if (s.stem == name) return &s;
  return nullptr;
}

double kernel_ms(const Profile& p) {
  double ms = 0;
  for (const StemTime& s : p.stems) ms += s.ms();
  return ms;
}

// Profiles `body` from a clean slate and stops afterwards.
template <class F>
Profile profiled(F body) {
  profiler::reset();
  profiler::start();
  body();
  profiler::stop();
  return profiler::read();
}

}  // namespace

TEST_SUITE("profile") {
  TEST_CASE("a transformer training step's kernels are all in the profile, each under its stem") {
    auto t = toy_trainer();
    Profile p = profiled([&] { t->train_step(); });
    std::set<std::string> seen;
    for (const StemTime& s : p.stems) {
      seen.insert(s.stem);
      CHECK(s.calls > 0);
    }
    // The toy step: embeddings, attention (fused, reading q, k and v as column ranges), layer norms, the
    // feed-forward's GELU, matrix products (each linear layer's starting from its bias row, no copy of
    // its own), the diffusion loss's cross-entropy, reductions (loss, the gradients' sums of squares, bias
    // gradients), the step guard (norm, clip factor, keep flag on the device), residual arithmetic and
    // fills, Adam, and the memory every tensor takes.
    std::set<std::string> expected{"attention", "cross_entropy", "elementwise", "embedding",
                                   "gelu",      "gemm",          "layer_norm",  "memory",
                                   "optimizer", "reduce",        "step_guard"};
    for (const std::string& name : expected) CHECK_MESSAGE(seen.count(name) == 1, "no time for ", name);
    for (const std::string& name : seen) CHECK_MESSAGE(expected.count(name) == 1, "unexpected stem ", name);
    CHECK(p.steps == 1);
    CHECK_FALSE(p.enqueue_only);
  }

  TEST_CASE("forward work and backward work land in their own columns") {
    auto t = toy_trainer();
    Profile p = profiled([&] { t->train_step(); });
    const StemTime* gemm = stem(p, "gemm");
    const StemTime* adam = stem(p, "optimizer");
    REQUIRE(gemm);
    REQUIRE(adam);
    CHECK(gemm->forward_ms > 0);
    CHECK(gemm->backward_ms > 0);
    CHECK(gemm->other_ms == 0);
    CHECK(adam->other_ms > 0);  // the optimizer phase
    CHECK(adam->forward_ms == 0);
    CHECK(adam->backward_ms == 0);
    const StemTime* embedding = stem(p, "embedding");  // forward gathers, backward scatter-adds
    REQUIRE(embedding);
    CHECK(embedding->forward_ms > 0);
    CHECK(embedding->backward_ms > 0);

    NoGrad no_grad;  // forward alone: nothing in the backward column
    Profile forward_only = profiled([&] {
      const TokenModel& net = t->model().token_model("profiling");
      net.forward(Ids({1, 2, 3, 4}, Shape{1, 4}));
    });
    CHECK(stem(forward_only, "gemm") != nullptr);
    for (const StemTime& s : forward_only.stems) CHECK(s.backward_ms == 0);
    CHECK(forward_only.steps == 0);
  }

  TEST_CASE("kernel time fits in the steps' wall time, and the phases add up to it") {
    auto t = toy_trainer();
    double seconds = 0;
    auto start = std::chrono::steady_clock::now();
    Profile p = profiled([&] {
      for (int i = 0; i < 3; ++i) seconds += t->train_step().seconds;
    });
    double outside_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    CHECK(p.steps == 3);
    CHECK(p.step_ms > 0);
    CHECK(p.step_ms <= outside_ms);
    CHECK(p.step_ms >= seconds * 1e3 * 0.99);  // the step scope encloses what StepStats times
    CHECK(kernel_ms(p) <= p.step_ms);
    double phases = 0;
    for (const PhaseTime& ph : p.phases) phases += ph.ms;
    CHECK(phases == doctest::Approx(p.step_ms).epsilon(1e-6));
    std::set<std::string> names;
    for (const PhaseTime& ph : p.phases) names.insert(ph.phase);
    CHECK(names == std::set<std::string>{"batch", "forward", "backward", "optimizer", "copies", "other"});
    for (const PhaseTime& ph : p.phases)
      if (ph.phase != "copies") CHECK_MESSAGE(ph.ms > 0, "no time in ", ph.phase);
  }

  TEST_CASE("reset clears what was recorded, and stop restores the backend and stops counting") {
    Backend* before = &backend_for(Device::CPU);
    auto t = toy_trainer();
    profiler::reset();
    profiler::start();
    CHECK(profiler::running());
    CHECK(&backend_for(Device::CPU) != before);
    CHECK(std::string(backend_for(Device::CPU).name()) == before->name());
    t->train_step();
    CHECK(profiler::read().steps == 1);
    profiler::reset();
    Profile cleared = profiler::read();
    CHECK(cleared.steps == 0);
    CHECK(cleared.step_ms == 0);
    CHECK(cleared.stems.empty());
    for (const PhaseTime& ph : cleared.phases) CHECK(ph.ms == 0);
    t->train_step();
    profiler::stop();
    CHECK_FALSE(profiler::running());
    CHECK(&backend_for(Device::CPU) == before);
    Profile one = profiler::read();
    t->train_step();  // not recorded
    Profile after = profiler::read();
    CHECK(after.steps == 1);
    REQUIRE(stem(after, "gemm"));
    CHECK(stem(after, "gemm")->calls == stem(one, "gemm")->calls);
  }

  TEST_CASE("the JSON and the table carry every stem and phase") {
    auto t = toy_trainer();
    Profile p = profiled([&] {
      t->train_step();
      t->train_step();
    });
    nlohmann::json j = profile_json(p);
    CHECK(j["steps"] == 2);
    CHECK(j["stems"].size() == p.stems.size());
    CHECK(j["stems"][0]["stem"] == p.stems[0].stem);
    CHECK(j["stems"][0]["calls"] == p.stems[0].calls);
    REQUIRE(j["phases"].size() == p.phases.size());
    CHECK(j["phases"][2]["phase"] == "backward");
    CHECK(j["phases"][2]["ms"].get<double>() > 0);
    std::string table = profile_table(p);
    for (const StemTime& s : p.stems) CHECK(table.find("\n" + s.stem + " ") != std::string::npos);
    CHECK(table.find("% of step") != std::string::npos);
    CHECK(table.find("2 steps of") != std::string::npos);
  }
}
