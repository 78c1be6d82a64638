// A Session as the front ends hold it: the loss history it keeps is a typed part of the run, carried in
// its checkpoint and on through a resume (the page's download and upload rely on it); the chunk API and
// weight snapshots read through device blocks (what the WebGPU page does with asynchronous reads).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <tuple>

#include "backend/kernels.hpp"
#include "checkpoint/checkpoint.hpp"
#include "run/saved_run.hpp"
#include "run/session.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

TrainConfig toy_run(uint64_t seed) {
  TrainConfig c = TrainConfig::for_task("toy", ModelKind::Transformer);
  c.batch = 8;
  c.seed = seed;
  return c;
}

// A block's numbers, read as the page's asynchronous read would (here the memory is the host's).
std::vector<float> read_block(const DeviceBlock& b) {
  std::vector<float> v(b.bytes / sizeof(float));
  std::memcpy(v.data(), b.data, b.bytes);
  return v;
}

}  // namespace

TEST_SUITE("session") {
  TEST_CASE("a run's checkpoint carries every step's loss, and a resumed run goes on from them") {
    TrainConfig c = TrainConfig::for_task("toy");
    c.batch = 8;
    c.seed = 3;
    std::unique_ptr<Session> run = Session::create(c, nullptr);
    StepTotals first = run->step(3);
    CHECK(run->losses() == first.losses);
    std::vector<uint8_t> bytes = save_checkpoint_bytes(run->checkpoint());
    SavedRun saved = load_saved_run_bytes(bytes.data(), bytes.size());
    CHECK(saved.file.losses == first.losses);
    CHECK(describe_saved_run(saved)["losses"].size() == 3);

    std::unique_ptr<Session> resumed = Session::resume(saved, nullptr);
    StepTotals more = resumed->step(2);
    REQUIRE(resumed->losses().size() == 5);
    CHECK(std::equal(first.losses.begin(), first.losses.end(), resumed->losses().begin()));
    CHECK(resumed->losses()[3] == more.losses[0]);
    CHECK(Session::view(saved)->checkpoint().losses == first.losses);  // weights only, history kept
  }

  TEST_CASE("a viewed model's checkpoint keeps its file's step beside the loss history, and loads back") {
    std::unique_ptr<Session> run = Session::create(toy_run(4), nullptr);
    run->step(3);
    std::vector<uint8_t> bytes = save_checkpoint_bytes(run->checkpoint());
    std::vector<uint8_t> viewed =
        save_checkpoint_bytes(Session::view(load_saved_run_bytes(bytes.data(), bytes.size()))->checkpoint());
    SavedRun back = load_saved_run_bytes(viewed.data(), viewed.size());
    CHECK(back.step() == 3);
    CHECK(back.file.losses == run->losses());
    CHECK_FALSE(back.resumable());
  }

  TEST_CASE("validation never runs on training windows: too little held-out text is an error or no number") {
    TrainConfig c = TrainConfig::for_task("stories");
    c.model = ModelConfig::transformer(2, 8, 1, 1);
    c.batch = 2;
    c.seq_len = 8;
    c.model.max_length = 8;
    std::string story = "once upon a time there was a cat . the cat sat on a mat and was happy . ";
    std::string train;
    for (int i = 0; i < 20; ++i) train += story;
    CorpusText given{train, "a cat sat ."};  // held-out text given, 4 tokens for windows of 8
    CHECK_THROWS_WITH_AS(Session::create(c, &given),
                         doctest::Contains("the held-out text has 4 tokens: too few for one window of 8"),
                         Error);
    CorpusText tail{train.substr(0, 200), ""};  // the held-out tail of ~45 tokens is 2: no validation
    std::unique_ptr<Session> run = Session::create(c, &tail);
    CHECK_FALSE(run->trainer("validation").validation_loss().has_value());
    nlohmann::json ev = run->trainer("evaluation").evaluate(1);
    CHECK(ev["validation_loss"].is_null());
    CHECK(ev["validation"].get<std::string>().find("too few for one window of 8") != std::string::npos);
    CorpusText enough{train, train.substr(0, 400)};
    CHECK(Session::create(c, &enough)->trainer("validation").validation_loss().has_value());
  }

  TEST_CASE("a session says its steps and its training config with the model as it is now") {
    auto run = Session::create(toy_run(2), nullptr);
    run->step(2);
    CHECK(run->steps_done() == 2);
    CHECK_FALSE(run->train_config().model.causal);
    run->set_causal(true);
    TrainConfig c = run->train_config();
    CHECK(c.model.causal);
    CHECK(c.seed == 2);
    CHECK(c.batch == 8);
    std::vector<uint8_t> bytes = save_checkpoint_bytes(run->checkpoint());
    auto viewed = Session::view(load_saved_run_bytes(bytes.data(), bytes.size()));
    CHECK(viewed->steps_done() == 0);
    CHECK_THROWS_WITH_AS(viewed->train_config(),
                         doctest::Contains("the training config needs a training run"), Error);
  }

  TEST_CASE("a chunk's stats total to what step(n) gives for the same steps") {
    auto single = Session::create(toy_run(4), nullptr), chunked = Session::create(toy_run(4), nullptr);
    StepTotals want = single->step(5);
    chunked->start_chunk(5);
    StepTotals got = step_totals(chunked->finish_chunk());
    auto figures = [](const StepTotals& t) {  // all but the time
      return std::make_tuple(t.losses, t.step, t.lr, t.tokens, t.flops, t.skipped, t.skipped_steps);
    };
    CHECK(figures(got) == figures(want));
    CHECK(want.step == 5);
    CHECK(want.tokens > 0);
    CHECK(chunked->losses() == want.losses);
  }

  TEST_CASE("a chunk's log is read by the caller and gives the losses of step(n)") {
    auto single = Session::create(toy_run(1), nullptr), chunked = Session::create(toy_run(1), nullptr);
    StepTotals want = single->step(6);
    DeviceBlock log = chunked->start_chunk(4);
    CHECK(log.shape == Shape{4, kStepLogWidth});
    CHECK(log.bytes == 4 * kStepLogWidth * sizeof(float));
    std::vector<StepStats> got = chunked->finish_chunk(read_block(log));
    chunked->start_chunk(2);
    for (const StepStats& s : chunked->finish_chunk()) got.push_back(s);  // read by the session itself
    REQUIRE(got.size() == 6);
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i].loss == want.losses[i]);
    CHECK(got.back().step == 6);
    CHECK(chunked->device() == Device::CPU);
    CHECK_THROWS_WITH_AS(chunked->start_chunk(0), doctest::Contains("1 <= n <= 1e6"), Error);
  }

  TEST_CASE("a snapshot read through parameter_blocks loads as copy_weights_from does") {
    auto source = Session::create(toy_run(2), nullptr), target = Session::create(toy_run(3), nullptr);
    source->step(2);
    NamedTensors snapshot;
    for (const DeviceBlock& b : source->parameter_blocks())
      snapshot.emplace_back(b.name, Tensor::from_vector(read_block(b), b.shape));
    CHECK(snapshot.size() == source->model().module().named_parameters().size());
    target->load_weights(snapshot, source->vocab());
    for (const auto& [name, p] : source->model().module().named_parameters())
      CHECK(target->parameter(name).to_vector() == p.to_vector());
    CHECK_THROWS_WITH_AS(target->load_weights(snapshot, {"a", "b"}), doctest::Contains("vocabular"), Error);
  }
}
