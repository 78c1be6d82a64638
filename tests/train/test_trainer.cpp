#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "backend/backend.hpp"
#include "checkpoint/checkpoint.hpp"
#include "support/backends.hpp"
#include "train/trainer.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

// Runs c.steps steps uninterrupted, then again stopping after `stop_at`, saving a checkpoint to bytes and
// resuming from it: every loss must equal the uninterrupted run's, bit for bit.
void check_resume_is_exact(const TrainConfig& c, int stop_at) {
  Trainer whole(c, make_task(c));
  std::vector<float> expected;
  for (int i = 0; i < c.steps; ++i) expected.push_back(whole.train_step().loss);

  Trainer first(c, make_task(c));
  for (int i = 0; i < stop_at; ++i) CHECK(first.train_step().loss == expected[static_cast<size_t>(i)]);
  std::vector<uint8_t> bytes = save_checkpoint_bytes(first.checkpoint());
  std::unique_ptr<Trainer> resumed = Trainer::resume(load_checkpoint_bytes(bytes), make_task(c));
  CHECK(resumed->steps_done() == stop_at);
  for (int i = stop_at; i < c.steps; ++i)
    CHECK(resumed->train_step().loss == expected[static_cast<size_t>(i)]);
}

// Every parameter's and optimizer state tensor's bits (NaN payloads included) and every step count, to show
// a step changed nothing.
std::vector<std::vector<uint32_t>> state_bits(const Trainer& t) {
  std::vector<std::vector<uint32_t>> out;
  auto add = [&](const NamedTensors& tensors) {
    for (const auto& [name, x] : tensors) {
      std::vector<float> v = x.to_vector();
      out.emplace_back(v.size());
      if (!v.empty()) std::memcpy(out.back().data(), v.data(), v.size() * sizeof(float));
    }
  };
  add(t.model().module().named_parameters());
  OptimizerState state = t.optimizer().state();
  add(state.slots);
  for (const auto& [name, n] : state.counts)
    out.push_back({static_cast<uint32_t>(n), static_cast<uint32_t>(static_cast<uint64_t>(n) >> 32)});
  return out;
}

Tensor parameter(const Trainer& t, const std::string& name) {  // shares the parameter's storage
  for (const auto& [n, p] : t.optimizer().params())
    if (n == name) return p;
  FAIL("no parameter " << name);
  return Tensor();
}

// Overwrites one number of a parameter (e.g. with NaN, as a diverged update would leave it).
void set_value(const Tensor& p, size_t i, float value) {
  std::vector<float> v = p.to_vector();
  v[i] = value;
  p.copy_from(Tensor::from_vector(v, p.shape()));
}

// n single steps against chunks of the given sizes on a fresh run each: every stat and, at the end, every
// parameter and optimizer state bit must agree (a host device reads at once what WebGPU reads later).
std::vector<StepStats> check_chunks_match_steps(const TrainConfig& c, const std::vector<int64_t>& chunks) {
  Trainer single(c, make_task(c)), chunked(c, make_task(c));
  std::vector<StepStats> all;
  for (int64_t n : chunks) {
    chunked.start_chunk(n);
    CHECK(chunked.chunk_pending());
    std::vector<StepStats> got = chunked.finish_chunk();
    REQUIRE(got.size() == static_cast<size_t>(n));
    all.insert(all.end(), got.begin(), got.end());
    for (const StepStats& g : got) {
      StepStats want = single.train_step();
      CHECK(g.step == want.step);
      CHECK(g.loss == want.loss);
      CHECK(g.grad_norm == want.grad_norm);
      CHECK(g.lr == want.lr);
      CHECK(g.skipped == want.skipped);
      CHECK(g.skipped_steps == want.skipped_steps);
      CHECK(g.tokens == want.tokens);
      CHECK(g.flops == want.flops);
    }
  }
  CHECK_FALSE(chunked.chunk_pending());
  CHECK(chunked.steps_done() == single.steps_done());
  CHECK(state_bits(chunked) == state_bits(single));
  return all;
}

TrainConfig toy_run() {
  TrainConfig c = TrainConfig::for_task("toy", ModelKind::Transformer);
  c.steps = 20;
  c.batch = 8;
  c.seed = 5;
  return c;
}

}  // namespace

TEST_SUITE("trainer") {
  TEST_CASE("resuming from a checkpoint gives exactly the losses of an uninterrupted run") {
    TrainConfig c = TrainConfig::for_task("toy", ModelKind::Transformer);
    c.steps = 12;
    c.seed = 3;
    check_resume_is_exact(c, 6);
  }

  TEST_CASE("a run past 2^24 steps saves and resumes with its exact step counts") {
    TrainConfig c = toy_run();
    Trainer first(c, make_task(c));
    first.train_step();
    Checkpoint ck = first.checkpoint();
    const int64_t big = (int64_t{1} << 40) + 3;  // float32 would store 2^40
    ck.step = big;
    for (auto& [name, n] : ck.optimizer_state.counts) n = big;
    std::unique_ptr<Trainer> resumed =
        Trainer::resume(load_checkpoint_bytes(save_checkpoint_bytes(ck)), make_task(c));
    CHECK(resumed->steps_done() == big);
    CHECK(resumed->optimizer().steps() == big);
    resumed->train_step();
    Checkpoint after = load_checkpoint_bytes(save_checkpoint_bytes(resumed->checkpoint()));
    CHECK(after.step == big + 1);
    REQUIRE(after.optimizer_state.counts.size() == ck.optimizer_state.counts.size());
    for (const auto& count : after.optimizer_state.counts) {
      CAPTURE(count.first);
      CHECK(count.second == big + 1);  // the toy model's every parameter has a gradient each step
    }
  }

  TEST_CASE("the sorter's one-cycle run resumes exactly too") {
    TrainConfig c = TrainConfig::for_task("sort");
    c.steps = 8;
    c.batch = 16;
    check_resume_is_exact(c, 3);
  }

  TEST_CASE("bad settings are clear errors") {
    TrainConfig c = TrainConfig::for_task("toy");
    c.batch = 0;
    CHECK_THROWS_WITH_AS(Trainer(c, make_task(c)), doctest::Contains("batch"), Error);
    c = TrainConfig::for_task("toy");
    c.model.kind = ModelKind::Sorter;
    CHECK_THROWS_AS(Trainer(c, make_task(c)), Error);
    CHECK_THROWS_WITH_AS(TrainConfig::for_task("poetry"), doctest::Contains("unknown task"), Error);
    CHECK_THROWS_WITH_AS(TrainConfig::from_json("{\"task\": \"toy\", \"stepz\": 3}"),
                         doctest::Contains("stepz"), Error);
  }

  TEST_CASE("validate() refuses a value just past either end of each of TrainConfig::bounds(), by name") {
    for (const Bounds& b : TrainConfig::bounds()) {
      CAPTURE(b.name);
      auto with = [&](double v) {  // the toy's config with the setting at v (a whole number for a count)
        std::string value = b.whole ? std::to_string(static_cast<int64_t>(v)) : std::to_string(v);
        return TrainConfig::from_json("{\"task\": \"toy\", \"" + std::string(b.name) + "\": " + value + "}");
      };
      const double step = b.whole ? 1 : b.max * 1e-3;
      for (double v : {b.min_open ? b.min : b.min - step, b.max_open ? b.max : b.max + step})
        CHECK_THROWS_WITH_AS(with(v), doctest::Contains((std::string(b.name) + " must be ").c_str()), Error);
      CHECK_NOTHROW(with(b.min_open ? (b.min + b.max) / 2 : b.min));
    }
  }

  TEST_CASE("a task's course settings take the task's own model family unless one is named") {
    CHECK(TrainConfig::for_task("sort").model.kind == ModelKind::Sorter);
    CHECK(TrainConfig::for_task("toy").model.kind == ModelKind::Transformer);
    CHECK(TrainConfig::for_task("stories", "").model.kind == ModelKind::Transformer);
    CHECK(TrainConfig::for_task("sort", "").model.kind == ModelKind::Sorter);
    TrainConfig nt = TrainConfig::for_task("toy", "notalking");
    CHECK(nt.model.kind == ModelKind::NoTalking);
    CHECK(nt.model.vocab == 14);
    CHECK(nt.steps == 1500);
    CHECK(default_kind(TaskKind::Sort) == ModelKind::Sorter);
    CHECK(default_kind(TaskKind::Stories) == ModelKind::Transformer);
    // A family the task cannot train is kept, and refused by validate().
    CHECK_THROWS_WITH_AS(TrainConfig::for_task("toy", "sorter").validate(),
                         doctest::Contains("the sort task trains the sorter"), Error);
    CHECK_THROWS_WITH_AS(TrainConfig::for_task("sort", "transformer").validate(),
                         doctest::Contains("the sort task trains the sorter"), Error);
    CHECK_THROWS_WITH_AS(TrainConfig::for_task("toy", "lstm"), doctest::Contains("unknown model 'lstm'"),
                         Error);
    // The toy and sort tasks' vocabularies are fixed: a model of another size trained, then never saved.
    TrainConfig wide = TrainConfig::for_task("toy");
    wide.model.vocab = 98;
    TrainConfig decay = TrainConfig::for_task("toy");  // a step's update would overflow every weight
    decay.weight_decay = 7e20f;
    CHECK_THROWS_WITH_AS(decay.validate(), doctest::Contains("weight_decay must be in [0, 10]"), Error);
    CHECK_THROWS_WITH_AS(wide.validate(),
                         doctest::Contains("the toy task has 14 words: the model's vocab must be 14, got 98"),
                         Error);
  }

  TEST_CASE("a training config survives its JSON form") {
    TrainConfig c = TrainConfig::for_task("sort");
    c.seed = 42;
    TrainConfig d = TrainConfig::from_json(c.to_json());
    CHECK(d.to_json() == c.to_json());
  }

  TEST_CASE(
      "a step with a non-finite loss is skipped and counted; parameters and optimizer state untouched") {
    Trainer t(toy_run(), make_task(toy_run()));
    for (int i = 0; i < 3; ++i) CHECK_FALSE(t.train_step().skipped);  // the optimizer has state by now
    Tensor w = parameter(t, "embed.weight");
    float good = w.to_vector()[3];
    set_value(w, 3, std::numeric_limits<float>::quiet_NaN());
    auto before = state_bits(t);
    StepStats s = t.train_step();
    CHECK(s.skipped);
    CHECK(std::isnan(s.loss));
    CHECK(std::isnan(s.grad_norm));
    CHECK(s.skipped_steps == 1);
    CHECK(s.step == 4);
    CHECK(t.steps_done() == 4);
    CHECK(state_bits(t) == before);

    set_value(w, 3, good);  // a finite model trains on, and the count of skips stays
    before = state_bits(t);
    s = t.train_step();
    CHECK_FALSE(s.skipped);
    CHECK(std::isfinite(s.loss));
    CHECK(s.grad_norm > 0);
    CHECK(std::isfinite(s.grad_norm));
    CHECK(s.skipped_steps == 1);
    CHECK(t.skipped_steps() == 1);
    CHECK(state_bits(t) != before);
  }

  TEST_CASE("a gradient norm that overflows skips the step although the loss is finite") {
    for (float clip : {0.f, 1.f}) {
      CAPTURE(clip);
      TrainConfig c = toy_run();
      c.clip = clip;
      Trainer t(c, make_task(c));
      t.train_step();
      Tensor out = parameter(t, "out.weight");
      std::vector<float> v = out.to_vector();
      for (float& x : v) x *= 1e25f;  // logits near 1e26 (finite); their squared gradients overflow
      out.copy_from(Tensor::from_vector(v, out.shape()));
      auto before = state_bits(t);
      StepStats s = t.train_step();
      CHECK(std::isfinite(s.loss));
      CHECK(std::isinf(s.grad_norm));
      CHECK(s.skipped);
      CHECK(state_bits(t) == before);
    }
  }

  TEST_CASE("max_skips non-finite steps in a row stop the run with a clear message") {
    TrainConfig c = toy_run();
    c.max_skips = 3;
    Trainer t(c, make_task(c));
    set_value(parameter(t, "out.bias"), 0, std::numeric_limits<float>::infinity());
    CHECK(t.train_step().skipped);
    CHECK(t.train_step().skipped_steps == 2);
    CHECK_THROWS_WITH_AS(t.train_step(),
                         doctest::Contains("3 steps in a row had a non-finite loss or gradient norm"), Error);
    CHECK(t.skipped_steps() == 3);
    c.max_skips = 0;
    CHECK_THROWS_WITH_AS(Trainer(c, make_task(c)), doctest::Contains("max_skips"), Error);
    CHECK(TrainConfig::from_json(toy_run().to_json()).max_skips == 20);
  }

  TEST_CASE("chunks of steps give the losses, norms and state of single steps on every CPU backend") {
    TrainConfig c = toy_run();
    c.clip = 0.5f;  // the toy's norms start above it: the clip factor is read from the device log
    test::for_each_cpu_backend([&] {
      std::vector<StepStats> stats = check_chunks_match_steps(c, {1, 4, 7});
      CHECK(stats.front().grad_norm > c.clip);
    });
    TrainConfig unclipped = c;  // and the factor changes the update (so the comparison above used it)
    unclipped.clip = 0.f;
    Trainer clipped_run(c, make_task(c)), unclipped_run(unclipped, make_task(unclipped));
    CHECK(clipped_run.train_step().loss == unclipped_run.train_step().loss);
    CHECK(state_bits(clipped_run) != state_bits(unclipped_run));
    Backend* previous = set_backend(Device::CPU, &reference_backend());
    c.model.dim = 8;  // the reference kernels are slow; the toy is small already, this keeps it quick
    check_chunks_match_steps(c, {3, 2});
    c.optimizer = "sgd";
    c.momentum = 0.9f;
    check_chunks_match_steps(c, {2, 3});
    set_backend(Device::CPU, previous);
  }

  TEST_CASE("a chunk's step log can be read elsewhere and handed back; a pending chunk blocks the rest") {
    TrainConfig c = toy_run();
    Trainer reference(c, make_task(c)), t(c, make_task(c));
    t.start_chunk(3);
    CHECK_THROWS_WITH_AS(t.start_chunk(1), doctest::Contains("still pending"), Error);
    CHECK_THROWS_WITH_AS(t.checkpoint(), doctest::Contains("still pending"), Error);
    CHECK(t.pending_log().shape() == Shape{3, kStepLogWidth});
    std::vector<float> log = t.pending_log().to_vector();  // as the page's asynchronous read would get it
    CHECK_THROWS_WITH_AS(t.finish_chunk(std::vector<float>(5)), doctest::Contains("has 12 numbers, got 5"),
                         Error);
    std::vector<StepStats> got = t.finish_chunk(log);
    for (const StepStats& g : got) CHECK(g.loss == reference.train_step().loss);
    CHECK_THROWS_WITH_AS(t.finish_chunk(), doctest::Contains("no chunk of steps is pending"), Error);
    CHECK_THROWS_WITH_AS(t.start_chunk(0), doctest::Contains("at least one step"), Error);
  }

  TEST_CASE("skips inside a chunk are counted when its log is read, and max_skips stops the run there") {
    TrainConfig c = toy_run();
    c.max_skips = 3;
    Trainer t(c, make_task(c));
    CHECK_FALSE(t.train_step().skipped);  // the optimizer has state by now
    set_value(parameter(t, "out.bias"), 0, std::numeric_limits<float>::infinity());
    auto before = state_bits(t);
    t.start_chunk(2);  // nothing read, nothing known yet
    CHECK(t.skipped_steps() == 0);
    CHECK(t.optimizer().steps() == 3);
    std::vector<StepStats> got = t.finish_chunk();
    CHECK(got[0].skipped);
    CHECK(got[1].skipped_steps == 2);
    CHECK(t.optimizer().steps() == 1);  // the skipped steps' counts were taken back
    CHECK(state_bits(t) == before);
    t.start_chunk(3);
    CHECK_THROWS_WITH_AS(
        t.finish_chunk(),
        doctest::Contains("training stopped at step 4: 3 steps in a row had a non-finite loss"), Error);
    CHECK(t.skipped_steps() == 5);
    CHECK(t.steps_done() == 6);
    CHECK_FALSE(t.chunk_pending());
    CHECK(state_bits(t) == before);
  }
}
