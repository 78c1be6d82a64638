// Benchmark (not a test) for the CUDA backend: tokens per second of training steps on the GPU — the story
// model (MyTransformer(2002), 64 x 32 windows) and a full-size configuration (dim 512, 8 heads, 8 layers,
// 64 x 256 windows) — diffusion and causal. run_cuda_bench.sh prints them beside PyTorch on the same GPU.
#include <chrono>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "backend/backend.hpp"
#include "nn/my_transformer.hpp"
#include "optim/adam.hpp"
#include "train/losses.hpp"

using namespace tf;

namespace {

nlohmann::json measure(int64_t dim, int64_t heads, int64_t layers, int64_t B, int64_t T, bool causal,
                       int reps) {
  Rng rng(0);
  ModelConfig c = ModelConfig::transformer(2002, dim, heads, layers);
  c.max_length = std::max<int64_t>(64, T + 1);
  c.causal = causal;
  MyTransformer net(c, rng, Device::CUDA);
  Adam opt(net.named_parameters(), 1e-3f);
  std::vector<int32_t> ids(static_cast<size_t>(B * T));
  for (auto& x : ids) x = static_cast<int32_t>(rng.below(2000));
  Ids x0(ids, Shape{B, T});
  auto step = [&] {
    opt.zero_grad();
    Tensor loss = causal ? next_token_loss(net, x0) : diffusion_loss(net, x0, 2001, rng);
    loss.backward();
    opt.apply_gradients();
    loss.item();  // waits for the step to finish
  };
  for (int i = 0; i < 3; ++i) step();
  auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) step();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count() / reps;
  return {{"dim", dim},
          {"layers", layers},
          {"batch", B},
          {"seq_len", T},
          {"causal", causal},
          {"ms", s * 1e3},
          {"tokens_per_s", static_cast<double>(B * T) / s}};
}

}  // namespace

int main(int argc, char** argv) {
  if (!cuda_available()) {
    std::fprintf(stderr, "no GPU: nothing to measure\n");
    return 1;
  }
  int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  for (bool causal : {false, true}) {
    std::printf("%s\n", measure(128, 4, 4, 64, 32, causal, reps).dump().c_str());
    std::printf("%s\n", measure(512, 8, 8, 64, 256, causal, reps).dump().c_str());
  }
}
