// Tinyformer: a small tensor/autograd library and the course's transformers, in C++17. This header and
// runtime.hpp are the public API: the CLI, the WebAssembly bindings and the benchmarks of the public path
// include these two and nothing else of the core (scripts/check-public-api.sh fails CI otherwise).
//
// Tensors are float32, row-major, up to four dimensions, on the CPU (SIMD kernels, a thread pool) or a
// CUDA device. Ops take tensors and return new ones; when an input requires grad, the op records how to
// pass gradients back, and backward() on a scalar fills the .grad() of every parameter that led to it.
// Models are Modules with named parameters; optimizers, schedules, losses and samplers work on them.
// A run (a Trainer and its task) is held by a Session; it saves to a checkpoint, one safetensors file
// (docs/checkpoints.md), which comes back as a SavedRun: typed, and checked against its tensors before
// anything is built from it. The same code is compiled to WebAssembly for the lab page.
//
// A worked example (tests/public_api/example.cpp compiles and runs exactly these lines): train the
// course's toy transformer for a few hundred steps, look inside, save the run and open it again.
//
// example begin
//   TrainConfig config = TrainConfig::for_task("toy");  // MyTransformer(14, 32, 1, 1), Adam 1e-3, batch 64
//   config.steps = 300;
//   std::unique_ptr<Session> run = Session::create(config, nullptr);
//   float first = run->advance(1)[0].loss;            // the diffusion loss, about 11.6 at the start
//   float last = run->advance(299).back().loss;       // about 0.3 after 300 steps
//
//   const TokenModel& net = run->model().token_model("looking inside");
//   Tensor logits = net.forward(Ids(toy::encode("the _ is alive"), Shape{1, 4}));  // [1, 4, 14]
//   Tensor weights = net.attention_weights()[0];                                 // [1, 1, 4, 4]
//
//   std::vector<uint8_t> file = save_checkpoint_bytes(run->checkpoint());  // or save_checkpoint(path, ...)
//   SavedRun saved = load_saved_run_bytes(file.data(), file.size());        // or load_saved_run(path)
//   std::unique_ptr<Session> again = Session::resume(saved, nullptr);       // step 300, the same optimizer
// example end
//
// The layers underneath: ops (ops/ops.hpp) over a backend interface (backend/backend.hpp) with CPU,
// reference and CUDA implementations; nn/ builds the networks from ops alone; run/ holds runs and files.
#pragma once

#include "autograd/node.hpp"
#include "checkpoint/checkpoint.hpp"
#include "checkpoint/finite_check.hpp"
#include "data/sort_digits.hpp"
#include "data/tokenizer.hpp"
#include "data/toy_language.hpp"
#include "data/vocabulary.hpp"
#include "data/word_codec.hpp"
#include "dist/communicator.hpp"
#include "interp/attention_maps.hpp"
#include "interp/figure.hpp"
#include "interp/logit_lens.hpp"
#include "interp/parameter_table.hpp"
#include "interp/patching.hpp"
#include "interp/pieces.hpp"
#include "interp/rollout.hpp"
#include "interp/saliency.hpp"
#include "io/file_bytes.hpp"
#include "io/json_fields.hpp"
#include "io/text_file.hpp"
#include "nn/model.hpp"
#include "ops/ops.hpp"
#include "optim/adam.hpp"
#include "optim/clip_grad.hpp"
#include "optim/schedule.hpp"
#include "optim/sgd.hpp"
#include "run/saved_run.hpp"
#include "run/session.hpp"
#include "sample/guesser.hpp"
#include "sample/left_to_right.hpp"
#include "sample/undiffuse.hpp"
#include "sample/write_text.hpp"
#include "story_gen/grammar.hpp"
#include "tensor/tensor.hpp"
#include "train/losses.hpp"
#include "train/step_totals.hpp"
#include "train/trainer.hpp"
#include "util/error.hpp"
#include "util/utf8.hpp"
#include "util/version.hpp"
