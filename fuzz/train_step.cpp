// Fuzz target: a whole training run from outside input, as the page's createRun takes it: a training config
// (JSON), story text and held-out text (the input's three parts, split at NUL bytes), then one step and the
// run's checkpoint. Refusals are tf::Errors; a run that steps must give a checkpoint that loads back as the
// same run (unless it diverged, when saving is refused).
#include <algorithm>

#include "checkpoint/finite_check.hpp"
#include "fuzz_check.hpp"
#include "run/session.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

std::vector<std::string> parts_of(const uint8_t* data, size_t size) {
  std::vector<std::string> parts(1);
  for (size_t i = 0; i < size; ++i)
    if (data[i] == 0 && parts.size() < 3)
      parts.emplace_back();
    else
      parts.back() += static_cast<char>(data[i]);
  parts.resize(3);
  return parts;
}

// A run small enough for thousands of inputs a second (the config's own limits are far wider).
bool small(const TrainConfig& c) {
  int64_t tokens = c.batch * std::min<int64_t>(c.seq_len, c.model.max_length);
  return c.model.parameter_count() <= 20000 && tokens <= 512 && c.model.layers <= 2 &&
         c.model.encoder_layers + c.model.decoder_layers <= 4;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> parts = parts_of(data, size);
  CorpusText text{parts[1], parts[2], 64};
  std::unique_ptr<Session> run;
  try {
    TrainConfig config = TrainConfig::from_json(parts[0]);
    if (!small(config)) return 0;
    run = Session::create(config, &text);
    run->advance(1);
  } catch (const Error&) {
    return 0;
  }
  std::vector<uint8_t> bytes;
  Checkpoint ck;
  try {
    ck = run->checkpoint();
    bytes = save_checkpoint_bytes(ck);
  } catch (const Error&) {
    // Refused only for a run that diverged: its step skipped, or numbers its update made infinite.
    bool finite = true;
    try {
      check_checkpoint_finite(ck, "");
    } catch (const Error&) {
      finite = false;
    }
    FUZZ_CHECK(!finite || !std::isfinite(run->losses().back()), "a run that did not diverge must save");
    return 0;
  }
  SavedRun back = load_saved_run_bytes(bytes.data(), bytes.size());  // what a run saves must load
  FUZZ_CHECK(back.step() == 1 && back.file.losses.size() == 1 && back.vocab() == run->vocab(),
             "the checkpoint is not the run that made it");
  return 0;
}
