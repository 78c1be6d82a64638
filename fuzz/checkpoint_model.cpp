// Fuzz target: a checkpoint file from an attacker, taken the way `tinyformer write` and the page take it:
// bytes -> checkpoint -> saved run (sizes checked) -> model -> a few words written (or ten digits sorted),
// and the checkpoint written back. Refusals are tf::Errors; a file that loads must save again (unless it
// holds non-finite values, which the writer refuses) and load to the same step, vocabulary and tensors.
#include "checkpoint/checkpoint.hpp"
#include "fuzz_check.hpp"
#include "run/saved_run.hpp"
#include "sample/write_text.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

bool all_finite(const std::vector<std::pair<std::string, Tensor>>& tensors) {
  for (const auto& [name, t] : tensors)
    for (float v : t.to_vector())
      if (!std::isfinite(v)) return false;
  return true;
}

void check_round_trip(const Checkpoint& ck) {
  std::vector<uint8_t> bytes;
  try {
    bytes = save_checkpoint_bytes(ck);
  } catch (const Error&) {
    FUZZ_CHECK(!all_finite(ck.params) || !all_finite(ck.optimizer_state.slots),
               "a checkpoint that loads, with finite values, must save again");
    return;
  }
  Checkpoint again = load_checkpoint_bytes(bytes);
  FUZZ_CHECK(again.step == ck.step && again.vocab == ck.vocab && again.rng_state == ck.rng_state,
             "step, vocabulary or RNG state changed in a round trip");
  FUZZ_CHECK(again.config_json == ck.config_json && again.metadata == ck.metadata &&
                 again.train_config_json == ck.train_config_json && again.task == ck.task,
             "config, training config, task or metadata changed in a round trip");
  FUZZ_CHECK(again.optimizer_state.counts == ck.optimizer_state.counts,
             "a step count changed in a round trip");
  FUZZ_CHECK(again.params.size() == ck.params.size(), "parameter count changed in a round trip");
  for (size_t i = 0; i < ck.params.size(); ++i)
    FUZZ_CHECK(fuzz::same_bits(again.params[i].second.to_vector(), ck.params[i].second.to_vector()),
               "parameter values changed in a round trip");
}

// What `write` does with the model, kept short: a few tokens, one story, or one sorted sequence.
void use_model(const Model& model, const Checkpoint& ck) {
  if (model.sorter()) {
    Ids out = model.sorter_model("sorting").greedy(Ids({7, 2, 9, 0, 4, 4, 1, 8, 3, 6}, Shape{1, 10}), 10);
    FUZZ_CHECK(out.data.size() == 10, "the sorter answers ten digits");
    return;
  }
  if (ck.vocab.empty()) return;
  WriteRequest r;
  r.prompt = "once upon a _";
  r.length = 8;
  r.count = 1;
  write_text(model, WordCodec(ck.vocab), r);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Checkpoint ck;
  try {
    ck = load_checkpoint_bytes(data, size);
  } catch (const Error&) {
    return 0;
  }
  check_round_trip(ck);
  try {
    std::unique_ptr<Model> model = build_model(read_saved_run(ck));
    use_model(*model, ck);
  } catch (const Error&) {
  }
  return 0;
}
