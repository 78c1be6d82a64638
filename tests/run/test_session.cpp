// A Session as the front ends hold it: the loss history it keeps is a typed part of the run, carried in
// its checkpoint and on through a resume (the page's download and upload rely on it); it refuses to
// checkpoint right after a skipped step, with a typed reason; the chunk API and weight snapshots read
// through device blocks (what the WebGPU page does with asynchronous reads).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>

#include "backend/kernels.hpp"
#include "checkpoint/checkpoint.hpp"
#include "run/saved_run.hpp"
#include "run/session.hpp"
#include "story_gen/grammar.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

TrainConfig toy_run(uint64_t seed) {
  TrainConfig c = TrainConfig::for_task("toy", ModelKind::Transformer);
  c.batch = 8;
  c.seed = seed;
  return c;
}

void set_parameter(const Session& s, const std::string& name, size_t i, float value) {
  Tensor p = s.parameter(name);
  std::vector<float> v = p.to_vector();
  v[i] = value;
  for (const auto& [n, t] : s.model().module().named_parameters())
    if (n == name) t.copy_from(Tensor::from_vector(v, p.shape()));
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
    StepTotals first = step_totals(run->advance(3));
    CHECK(run->losses() == first.losses);
    std::vector<uint8_t> bytes = save_checkpoint_bytes(run->checkpoint());
    SavedRun saved = load_saved_run_bytes(bytes.data(), bytes.size());
    CHECK(saved.file.losses == first.losses);
    CHECK(describe_saved_run(saved)["losses"].size() == 3);

    std::unique_ptr<Session> resumed = Session::resume(saved, nullptr);
    StepTotals more = step_totals(resumed->advance(2));
    REQUIRE(resumed->losses().size() == 5);
    CHECK(std::equal(first.losses.begin(), first.losses.end(), resumed->losses().begin()));
    CHECK(resumed->losses()[3] == more.losses[0]);
    CHECK(Session::view(saved)->checkpoint().losses == first.losses);  // weights only, history kept
  }

  TEST_CASE("a viewed model's checkpoint keeps its file's step beside the loss history, and loads back") {
    std::unique_ptr<Session> run = Session::create(toy_run(4), nullptr);
    run->advance(3);
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
    CHECK_FALSE(run->validation_loss().has_value());
    nlohmann::json ev = run->evaluate(1);
    CHECK(ev["validation_loss"].is_null());
    CHECK(ev["validation"].get<std::string>().find("too few for one window of 8") != std::string::npos);
    CorpusText enough{train, train.substr(0, 400)};
    CHECK(Session::create(c, &enough)->validation_loss().has_value());
  }

  TEST_CASE("a session says its steps and its training config with the model as it is now") {
    auto run = Session::create(toy_run(2), nullptr);
    run->advance(2);
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

  TEST_CASE("a chunk's stats total to what advance(n) gives for the same steps") {
    auto single = Session::create(toy_run(4), nullptr), chunked = Session::create(toy_run(4), nullptr);
    StepTotals want = step_totals(single->advance(5));
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

  TEST_CASE("a chunk's log is read by the caller and gives the losses of advance(n)") {
    auto single = Session::create(toy_run(1), nullptr), chunked = Session::create(toy_run(1), nullptr);
    StepTotals want = step_totals(single->advance(6));
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
    source->advance(2);
    NamedTensors snapshot;
    for (const DeviceBlock& b : source->parameter_blocks())
      snapshot.emplace_back(b.name, Tensor::from_vector(read_block(b), b.shape));
    CHECK(snapshot.size() == source->model().module().named_parameters().size());
    target->load_weights(snapshot, source->vocab());
    for (const auto& [name, p] : source->model().module().named_parameters())
      CHECK(target->parameter(name).to_vector() == p.to_vector());
    CHECK_THROWS_WITH_AS(target->load_weights(snapshot, {"a", "b"}), doctest::Contains("vocabular"), Error);
  }

  TEST_CASE(
      "no checkpoint right after a skipped step: the refusal is typed, and a step that trains ends it") {
    auto run = Session::create(toy_run(5), nullptr);
    run->advance(2);
    float good = run->parameter("out.bias").to_vector()[0];
    set_parameter(*run, "out.bias", 0, std::numeric_limits<float>::infinity());
    REQUIRE(run->advance(1)[0].skipped);
    CHECK(run->skipped_steps() == 1);
    try {
      run->checkpoint();
      FAIL("a checkpoint was taken right after a skipped step");
    } catch (const CheckpointRefused& e) {
      CHECK(e.reason == Refusal::SkippedStep);
      CHECK(std::string(refusal_name(e.reason)) == "skipped-step");
      CHECK(std::string(e.what()).find("not finite") != std::string::npos);
    }
    CHECK_THROWS_AS(run->checkpoint_blocks(), CheckpointRefused);  // the WebGPU page's way in too
    set_parameter(*run, "out.bias", 0, good);
    REQUIRE_FALSE(run->advance(1)[0].skipped);
    Checkpoint ck = run->checkpoint();
    CHECK(ck.step == 4);
    REQUIRE(ck.losses.size() == 4);
    CHECK(std::isnan(ck.losses[2]));  // the skipped step's loss, kept in the history
  }

  TEST_CASE("a story run takes weights only from a model of the same vocabulary") {
    CorpusText one{generate_stories(1, 60000), "", 300}, other{generate_stories(2, 60000), "", 300};
    TrainConfig c = TrainConfig::for_task("stories");
    c.model = ModelConfig::transformer(2, 16, 2, 1);  // the vocabulary's size comes from the text
    c.batch = 2;
    SavedRun source = read_saved_run(Session::create(c, &one)->checkpoint());
    std::unique_ptr<Session> same = Session::create(c, &one), different = Session::create(c, &other);
    REQUIRE(same->vocab().size() == different->vocab().size());
    REQUIRE(same->vocab() != different->vocab());
    CHECK(same->story_data()->vocab.size() == static_cast<int64_t>(same->vocab().size()));
    CHECK_NOTHROW(same->init_from(source));
    CHECK_THROWS_WITH_AS(different->init_from(source), doctest::Contains("another vocabulary"), Error);
  }
}
