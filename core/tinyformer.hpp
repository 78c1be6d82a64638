// Tinyformer: a small tensor/autograd library and the course's transformers, in C++17.
//
// Tensors are float32, row-major, up to four dimensions, on the CPU (xsimd kernels, a thread pool) or a
// CUDA device. Ops take tensors and return new ones; when an input requires grad, the op records how to
// pass gradients back, and backward() on a scalar fills the .grad() of every parameter that led to it.
// Models are Modules with named parameters; optimizers, schedules, losses, samplers and checkpoints work
// on them. The same code is compiled to WebAssembly for the lab page.
//
// A worked example — train the toy transformer of the course for a few steps, then look inside:
//
//   #include "tinyformer.hpp"
//   using namespace tf;
//
//   TrainConfig config = TrainConfig::for_task("toy");   // MyTransformer(14, 32, 1, 1), Adam 1e-3, batch 64
//   Trainer trainer(config, make_task(config));
//   for (int i = 0; i < 1500; ++i) trainer.step();      // the diffusion loss falls to about 0.50
//
//   const TokenModel& net = trainer.model().token_model("looking inside");
//   Tensor logits = net.forward(Ids(toy::encode("the _ is alive"), Shape{1, 4}));   // [1, 4, 14]
//   Tensor weights = net.attention_weights()[0];                                     // [1, 1, 4, 4]
//   save_checkpoint("toy.safetensors", trainer.checkpoint());
//
// The layers underneath: ops (ops/ops.hpp) over a backend interface (backend/backend.hpp) with CPU,
// reference and CUDA implementations; nn/ builds the networks from ops alone.
#pragma once

#include "autograd/node.hpp"
#include "backend/backend.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "data/sort_task.hpp"
#include "data/story_grammar.hpp"
#include "data/toy_language.hpp"
#include "data/utf8.hpp"
#include "data/vocabulary.hpp"
#include "interp/parameter_table.hpp"
#include "interp/pieces.hpp"
#include "interp/rollout.hpp"
#include "interp/saliency.hpp"
#include "io/checkpoint.hpp"
#include "io/file_bytes.hpp"
#include "io/model_loader.hpp"
#include "nn/model.hpp"
#include "ops/ops.hpp"
#include "optim/adam.hpp"
#include "optim/clip_grad.hpp"
#include "optim/schedule.hpp"
#include "optim/sgd.hpp"
#include "sample/left_to_right.hpp"
#include "sample/undiffuse.hpp"
#include "tensor/tensor.hpp"
#include "train/losses.hpp"
#include "train/trainer.hpp"
#include "util/error.hpp"
#include "util/version.hpp"
