// A Tinyformer checkpoint: one safetensors file holding a model's parameters under their Module names,
// optionally the optimizer state under "optim.", and in its metadata what rebuilds and resumes the run
// (config JSON, vocabulary, step, RNG state, "tinyformer.format" = "1"). Layout and names:
// docs/checkpoints.md. The byte functions are the whole API; the file functions only add the disk, so the
// browser (wasm) and the CLI read and write the same files.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "io/safetensors.hpp"
#include "nn/model_config.hpp"
#include "nn/module.hpp"
#include "optim/optimizer_state.hpp"
#include "tensor/tensor.hpp"
#include "util/error.hpp"

namespace tf {

// The metadata keys a checkpoint owns; Checkpoint::metadata may not use them.
namespace checkpoint_keys {
constexpr const char* kFormat = "tinyformer.format";  // "1"
constexpr const char* kConfig = "tinyformer.config";  // ModelConfig::to_json()
constexpr const char* kVocab = "tinyformer.vocab";    // JSON array of strings; absent when there is none
constexpr const char* kStep = "tinyformer.step";      // decimal
constexpr const char* kRng = "tinyformer.rng";        // JSON array of decimal strings (Rng::state())
constexpr const char* kTrain = "tinyformer.train";    // TrainConfig::to_json(); absent in weights-only files
constexpr const char* kTask = "tinyformer.task";      // "toy", "sort" or "stories"
constexpr const char* kLosses = "tinyformer.losses";  // JSON array, a loss per step (null: not finite)
}  // namespace checkpoint_keys

constexpr const char* kCheckpointFormat = "1";

// Why a run's checkpoint was not written: the run diverged. Each front end says it its own way (the CLI's
// message and exit status, the JS API's TinyformerError.kind, the page's way back to the last good save).
enum class Refusal {
  SkippedStep,  // the run's last step was skipped: its loss or gradient norm was not finite (run/session)
  NotFinite,    // a parameter or optimizer state holds NaN or infinity (checkpoint/finite_check)
};
inline const char* refusal_name(Refusal r) {
  return r == Refusal::SkippedStep ? "skipped-step" : "not-finite";
}

class CheckpointRefused : public Error {
 public:
  CheckpointRefused(Refusal why, const std::string& message) : Error(message), reason(why) {}
  Refusal reason;
};
constexpr const char* kOptimizerPrefix = "optim.";
constexpr const char* kSnapshotPrefix = "step_";  // "step_<N>/" + a parameter's name: a timeline snapshot
constexpr size_t kMaxSnapshots = 64;              // a file's timeline at most (the page keeps 40 at most)

struct Checkpoint {
  std::string config_json;                      // ModelConfig::to_json(); checked by ModelConfig::from_json
  std::vector<std::string> vocab;               // token strings by id; empty = not stored
  int64_t step = 0;                             // training steps done
  std::vector<uint64_t> rng_state;              // Rng::state(); empty = not stored
  std::string train_config_json;                // TrainConfig::to_json(); empty = weights only
  std::string task;                             // the task's name; empty = not stored
  std::vector<float> losses;                    // the run's loss of every step so far; empty = not stored
  std::map<std::string, std::string> metadata;  // anything else (task, schedule settings, ...)
  std::vector<std::pair<std::string, Tensor>> params;  // Module::named_parameters() names
  OptimizerState optimizer_state;            // stored as "optim." + name: counts as I64 [1], slots as F32
  std::map<int64_t, NamedTensors> timeline;  // the parameters at earlier steps (<= step), as params
};

// Refuses (CheckpointRefused, NotFinite) a checkpoint whose parameters or optimizer state hold NaN or
// infinity.
std::vector<uint8_t> save_checkpoint_bytes(const Checkpoint& ck);
// Tensors come back on the CPU. Throws tf::Error for a corrupt file, an unknown format, a bad config or a
// vocabulary whose length is not the config's vocab. Files from before the optimizer's names lost their
// doubled prefix ("optim.optim.steps") read as today's ("optim.steps"). Files from before counts were I64
// store them as F32 [1]: those come back among optimizer_state.slots, where the optimizer reads them as
// counts. An I64 entry outside "optim." or of more than one number is refused. A timeline of more than
// kMaxSnapshots steps, past the checkpoint's step, or whose snapshots differ from the parameters in a name or
// shape, is refused before its numbers are decoded.
// `check` (when given) sees the metadata (ck without tensors) and each parameter's name and shape before
// any number is decoded, and may refuse the file there.
using ClaimsCheck = std::function<void(const Checkpoint& metadata, const ParameterShapes& params)>;
Checkpoint load_checkpoint_bytes(const uint8_t* data, size_t size, const ClaimsCheck& check = nullptr);
inline Checkpoint load_checkpoint_bytes(const std::vector<uint8_t>& bytes) {
  return load_checkpoint_bytes(bytes.data(), bytes.size());
}

void save_checkpoint(const std::string& path, const Checkpoint& ck);  // temporary file, then rename
Checkpoint load_checkpoint(const std::string& path);  // refuses devices and files over kMaxCheckpointBytes

// The biggest file load_checkpoint reads: a kMaxParameters model with two optimizer slots per parameter.
constexpr uint64_t kMaxCheckpointBytes =
    8 + kSafetensorsMaxHeader + 3 * 4 * static_cast<uint64_t>(kMaxParameters);

// "" when `file` holds exactly the `model`'s parameters; else what differs first: a parameter of another
// shape (both named), else the missing ones, else the extra ones (a name twice is an error too).
std::string parameter_mismatch(const ParameterShapes& model, const ParameterShapes& file);

// Copies the checkpoint's parameters into the model's, by name, onto the model's device. Every name and
// shape is checked first (parameter_mismatch): on a difference it throws and the model is untouched.
void load_parameters(Module& model, const Checkpoint& ck);

}  // namespace tf
