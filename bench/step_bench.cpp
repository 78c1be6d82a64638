// Benchmark (not a test): milliseconds per training step of the course's models at 1 and 2 threads —
// MyTransformer(2002) on 64 x 32 windows with the diffusion loss and, causal, the next-token loss; the
// sorter on batches of 128 — and the time to write a 32-token story left to right with the KV cache and
// by recomputing the whole prefix each step (the page's loop). One JSON line per thread count.
// bench/run_step_bench.sh prints these beside PyTorch's numbers from the same run. --cpu-time times the
// 1-thread runs by this process's CPU time instead of the wall clock (a loaded shared machine stretches
// wall time by whatever else runs; the CPU time of one thread mostly shrugs that off); 2 threads stay on
// the wall clock.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

#include <nlohmann/json.hpp>

#include "runtime.hpp"
#include "tinyformer.hpp"

using namespace tf;

namespace {

bool g_cpu_time = false;  // set by --cpu-time and honoured while one thread runs

double now_ms() {
  if (g_cpu_time && runtime::threads() == 1) {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Median milliseconds of `reps` calls after `warmup` (the machine is shared: the median shrugs off spikes).
template <class F>
double ms_per_call(F f, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) f();
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    double t = now_ms();
    f();
    ms.push_back(now_ms() - t);
  }
  std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
  return ms[static_cast<size_t>(reps / 2)];
}

Ids random_batch(Rng& rng, int64_t B, int64_t T, int64_t V) {
  std::vector<int32_t> v(static_cast<size_t>(B * T));
  for (auto& x : v) x = static_cast<int32_t>(rng.below(V));
  return Ids(v, Shape{B, T});
}

nlohmann::json transformer_step(bool causal, int reps) {
  Rng rng(0);
  ModelConfig c = ModelConfig::transformer(2002);
  c.causal = causal;
  MyTransformer net(c, rng);
  Adam opt(net.named_parameters(), 1e-3f);
  Ids x0 = random_batch(rng, 64, 32, 2000);
  uint64_t f0 = runtime::flops_done();
  double ms = ms_per_call(
      [&] {
        opt.zero_grad();
        Tensor loss = causal ? next_token_loss(net, x0) : diffusion_loss(net, x0, 2001, rng);
        loss.backward();
        opt.step();
      },
      3, reps);
  double gflop =
      static_cast<double>(runtime::flops_done() - f0) / (3 + reps) * 1e-9;  // the same work every step
  return {{"ms", ms}, {"gflop_per_step", gflop}, {"gflops_per_s", gflop / ms * 1e3}};
}

double sorter_step(int reps) {
  Rng rng(0);
  Sorter net(ModelConfig::sorter(), rng);
  AdamW opt(net.named_parameters(), 1e-3f);
  sort_digits::Batch b = sort_digits::make_batch(rng, 128);
  return ms_per_call(
      [&] {
        opt.zero_grad();
        sorter_loss(net, b.src, b.tgt_in, b.tgt).backward();
        clip_grad_norm(net.named_parameters(), 1.f);
        opt.step();
      },
      3, reps);
}

double story_ms(bool use_cache, int reps) {
  Rng rng(0);
  ModelConfig c = ModelConfig::transformer(2002);
  c.causal = true;
  MyTransformer net(c, rng);
  WriteOptions o;
  o.length = 32;
  o.use_cache = use_cache;
  o.guess.forbidden = {2000, 2001};
  return ms_per_call([&] { write_left_to_right(net, {5, 6, 7, 8}, o, rng); }, 2, reps);
}

}  // namespace

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::stoi(argv[1]) : 10;
  g_cpu_time = argc > 2 && std::string(argv[2]) == "--cpu-time";
  for (int threads : {1, 2}) {
    runtime::set_threads(threads);
    nlohmann::json j = {{"threads", threads},
                        {"diffusion", transformer_step(false, reps)},
                        {"causal", transformer_step(true, reps)},
                        {"sorter_ms", sorter_step(reps)},
                        {"story_kv_cache_ms", story_ms(true, reps)},
                        {"story_recompute_ms", story_ms(false, reps)}};
    std::printf("%s\n", j.dump().c_str());
    std::fflush(stdout);
  }
}
