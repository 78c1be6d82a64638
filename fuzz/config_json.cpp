// Fuzz target: the model and training configs as checkpoint metadata carries them (JSON from a file). They
// may be refused with a tf::Error naming the problem, never crash; one that is accepted must be valid and
// read back from its own JSON to the same config.
#include "fuzz_check.hpp"
#include "nn/model_config.hpp"
#include "train/train_config.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

template <typename Config>
void check_config(const std::string& text) {
  std::string json;
  try {
    json = Config::from_json(text).to_json();
  } catch (const Error&) {
    return;
  }
  Config again = Config::from_json(json);  // must not throw: a config writes only what it reads
  again.validate();
  FUZZ_CHECK(again.to_json() == json, "a config changed in its JSON round trip");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  check_config<ModelConfig>(text);
  check_config<TrainConfig>(text);
  return 0;
}
