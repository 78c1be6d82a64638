// A Session as the front ends hold it: the loss history it keeps is a typed part of the run, carried in
// its checkpoint and on through a resume (the page's download and upload rely on it).
#include <doctest/doctest.h>

#include <cmath>

#include "io/checkpoint.hpp"
#include "run/saved_run.hpp"
#include "run/session.hpp"

using namespace tf;

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
}
