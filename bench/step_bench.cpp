// Benchmark (not a test): milliseconds per training step of the course's models at 1 and 2 threads —
// MyTransformer(2002) on 64 x 32 windows with the diffusion loss and, causal, the next-token loss; the
// sorter on batches of 128 — and the time to write a 32-token story left to right with the KV cache and
// by recomputing the whole prefix each step (the page's loop). One JSON line per thread count.
// bench/run_step_bench.sh prints these beside PyTorch's numbers from the same run. --cpu-time times the
// 1-thread runs by this process's CPU time instead of the wall clock (a loaded shared machine stretches
// wall time by whatever else runs; the CPU time of one thread mostly shrugs that off); 2 threads stay on
// the wall clock. The profiler is off unless --profile: then the two story steps are timed with it off and
// on in alternating rounds (its overhead) and their profile tables go to stderr.
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

// A story step of MyTransformer(2002) on 64 x 32 windows, its parts marked as profile phases (inert when
// the profiler is off).
struct StoryStep {
  bool causal;
  Rng rng{0};
  MyTransformer net;
  Adam opt;
  Ids x0;
  explicit StoryStep(bool causal_loss)
      : causal(causal_loss),
        net(config(causal_loss), rng),
        opt(net.named_parameters(), 1e-3f),
        x0(random_batch(rng, 64, 32, 2000)) {}
  static ModelConfig config(bool causal) {
    ModelConfig c = ModelConfig::transformer(2002);
    c.causal = causal;
    return c;
  }
  void operator()() {
    StepScope step;
    {
      PhaseScope phase(Phase::Optimizer);
      opt.zero_grad();
    }
    Tensor loss;
    {
      PhaseScope phase(Phase::Forward);
      loss = causal ? next_token_loss(net, x0) : diffusion_loss(net, x0, 2001, rng);
    }
    loss.backward();  // the engine marks the backward phase
    PhaseScope phase(Phase::Optimizer);
    opt.apply_gradients();
  }
};

nlohmann::json transformer_step(bool causal, int reps) {
  StoryStep step(causal);
  uint64_t f0 = runtime::flops_done();
  double ms = ms_per_call([&] { step(); }, 3, reps);
  double gflop =
      static_cast<double>(runtime::flops_done() - f0) / (3 + reps) * 1e-9;  // the same work every step
  return {{"ms", ms}, {"gflop_per_step", gflop}, {"gflops_per_s", gflop / ms * 1e3}};
}

// What timing one kernel call costs, in nanoseconds: a million one-element fills (one kernel call each)
// with the profiler on, less the same with it off. Times the calls per step, it bounds the profiler's share
// of a step without the noise of timing whole steps on a busy machine.
double profiler_ns_per_call() {
  Tensor t = Tensor::zeros(Shape{1});
  const int n = 1000000;
  auto fills = [&] {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) t.fill_(static_cast<float>(i));
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / n;
  };
  std::vector<double> off, on;
  for (int r = 0; r < 5; ++r) {
    off.push_back(fills());
    profiler::start();
    on.push_back(fills());
    profiler::stop();
  }
  std::sort(off.begin(), off.end());
  std::sort(on.begin(), on.end());
  return on[2] - off[2];
}

// The profiler's cost: `rounds` rounds of `reps` steps with it off, then on (the same model, alternating so
// the machine's drift hits both), and the profile of the steps it was on for.
nlohmann::json profiled_step(bool causal, int reps, int rounds) {
  StoryStep step(causal);
  ms_per_call([&] { step(); }, 3, 1);
  profiler::reset();
  std::vector<double> off, on;
  for (int r = 0; r < rounds; ++r) {
    off.push_back(ms_per_call([&] { step(); }, 0, reps));
    profiler::start();
    on.push_back(ms_per_call([&] { step(); }, 0, reps));
    profiler::stop();
  }
  Profile p = profiler::read();
  profiler::reset();
  double per_call_ns = profiler_ns_per_call();
  double calls = 0;
  for (const StemTime& s : p.stems) calls += static_cast<double>(s.calls) / static_cast<double>(p.steps);
  std::fprintf(stderr, "%s story step, %d thread(s):\n%s\n", causal ? "causal" : "diffusion",
               runtime::threads(), profile_table(p).c_str());
  auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  double off_ms = median(off), on_ms = median(on);
  double step_ms = p.step_ms / static_cast<double>(p.steps);
  return {{"off_ms", off},
          {"on_ms", on},
          {"median_off_ms", off_ms},
          {"median_on_ms", on_ms},
          {"overhead_percent", (on_ms / off_ms - 1) * 100},
          {"ns_per_call", per_call_ns},
          {"calls_per_step", calls},
          {"per_call_overhead_percent", per_call_ns * calls * 1e-6 / step_ms * 100},
          {"profile", profile_json(p)}};
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
        opt.apply_gradients();
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
  bool profile = false;
  for (int i = 2; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--cpu-time") g_cpu_time = true;
    if (flag == "--profile") profile = true;
  }
  for (int threads : {1, 2}) {
    runtime::set_threads(threads);
    if (profile) {
      nlohmann::json j = {{"threads", threads},
                          {"diffusion", profiled_step(false, reps, 5)},
                          {"causal", profiled_step(true, reps, 5)}};
      std::printf("%s\n", j.dump().c_str());
      std::fflush(stdout);
      continue;
    }
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
