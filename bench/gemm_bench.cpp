// GEMM throughput on the model's shapes: each layer's forward product as written, the linear as it runs
// (y = x W^T, W stored [out, in]), and the two backward products (dX = dY W, dW = dY^T X). Native builds
// time OpenBLAS sgemm on the same operands right after Tinyformer and print the ratio; the fastest call
// counts, since the machine is shared and noise only ever slows a call down.
//   gemm_bench [--threads 1,2] [--rounds 10] [--clock wall|cpu] [--tsv]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cpu/thread_pool.hpp"

#ifdef TF_BENCH_OPENBLAS
#include <cblas.h>

#include <thread>
#endif
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#include <ctime>
#endif

namespace {

struct Shape {
  std::string name;
  int M, N, K;
  bool trans_a, trans_b;
};

// The model's linear layers as (in, out) over T = 2048 rows.
std::vector<Shape> model_shapes() {
  const int rows = 2048;
  const int layers[][2] = {{128, 384}, {128, 512}, {512, 128}, {128, 2002}};
  std::vector<Shape> out;
  for (auto& l : layers) {
    int in = l[0], o = l[1];
    std::string tag = std::to_string(in) + "x" + std::to_string(o);
    out.push_back({"x.W    " + tag, rows, o, in, false, false});
    out.push_back({"x.W^T  " + tag, rows, o, in, false, true});
    out.push_back({"dY.W   " + tag, rows, in, o, false, false});
    out.push_back({"dY^T.X " + tag, o, in, rows, true, false});
  }
  return out;
}

struct Operands {
  std::vector<float> a, b, c;
  tf::GemmArgs args;
};

Operands make_operands(const Shape& s) {
  Operands op;
  tf::GemmArgs& g = op.args;
  g.M = s.M, g.N = s.N, g.K = s.K, g.trans_a = s.trans_a, g.trans_b = s.trans_b;
  g.lda = s.trans_a ? s.M : s.K;
  g.ldb = s.trans_b ? s.K : s.N;
  g.ldc = s.N;
  op.a.resize(size_t(s.M) * s.K);
  op.b.resize(size_t(s.K) * s.N);
  op.c.assign(size_t(s.M) * s.N, 0.f);
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1 << 24) - 0.5f;
  };
  for (float& x : op.a) x = next();
  for (float& x : op.b) x = next();
  return op;
}

void run_tf(Operands& op) { tf::cpu_backend().gemm(op.args, op.a.data(), op.b.data(), op.c.data()); }

#ifdef TF_BENCH_OPENBLAS
void run_blas(Operands& op, std::vector<float>& c) {
  const tf::GemmArgs& g = op.args;
  cblas_sgemm(CblasRowMajor, g.trans_a ? CblasTrans : CblasNoTrans, g.trans_b ? CblasTrans : CblasNoTrans,
              g.M, g.N, g.K, 1.f, op.a.data(), int(g.lda), op.b.data(), int(g.ldb), 0.f, c.data(),
              int(g.ldc));
}
#endif

// Seconds on the wall clock, or (--clock cpu) CPU seconds of the whole process: on a loaded machine the
// latter shows what one thread does while it runs; it would sum threads, so runs of 2+ threads use the wall.
bool g_cpu_clock = false;

#ifdef __EMSCRIPTEN__
EM_JS(double, node_cpu_seconds, (), {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e-6;
});
#endif

double now() {
  if (g_cpu_clock) {
#ifdef __EMSCRIPTEN__
    return node_cpu_seconds();
#else
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
#endif
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Times f one call at a time until at least `rounds` calls and `budget` seconds are spent; the fastest
// call counts. Single calls are short enough to fall between the other processes of a busy machine.
class BestOf {
 public:
  void add(double seconds) { best_ = std::min(best_, seconds), spent_ += seconds, ++calls_; }
  bool done(int rounds, double budget) const { return calls_ >= rounds && spent_ >= budget; }
  double best() const { return best_; }

 private:
  double best_ = 1e30, spent_ = 0;
  int calls_ = 0;
};

template <class F>
double time_call(F&& f) {
  double t0 = now();
  f();
  return now() - t0;
}

struct Row {
  Shape shape;
  int threads;
  double tf_gflops, blas_gflops, max_rel_diff;
};

Row measure(const Shape& s, int threads, int rounds) {
  const double budget = 0.15;  // seconds per library and thread count
  Operands op = make_operands(s);
  double flops = 2.0 * s.M * s.N * s.K;
  Row row{s, threads, 0, 0, 0};
  tf::ThreadPool::instance().set_threads(threads);
  auto tf_call = [&] { run_tf(op); };
  tf_call();  // warm: packing buffers and pool threads
  BestOf tf_time;
#ifdef TF_BENCH_OPENBLAS
  BestOf blas_time;
  openblas_set_num_threads(threads);
  if (openblas_get_num_threads() != threads) std::fprintf(stderr, "OpenBLAS refused %d threads\n", threads);
  std::vector<float> c_blas(op.c.size());
  auto blas_call = [&] { run_blas(op, c_blas); };
  blas_call();
  double worst = 0, scale = 0;
  for (size_t i = 0; i < op.c.size(); ++i) {
    worst = std::max(worst, double(std::fabs(op.c[i] - c_blas[i])));
    scale = std::max(scale, double(std::fabs(c_blas[i])));
  }
  row.max_rel_diff = worst / std::max(scale, 1e-30);
  // OpenBLAS's workers keep spinning for about 0.1 s after a call and would take a core from Tinyformer's
  // threads, so the two are not interleaved call by call: let them settle, time Tinyformer, then OpenBLAS.
  if (threads > 1) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  while (!tf_time.done(rounds, budget)) tf_time.add(time_call(tf_call));
  while (!blas_time.done(rounds, budget)) blas_time.add(time_call(blas_call));
  row.blas_gflops = flops / blas_time.best() * 1e-9;
#else
  while (!tf_time.done(rounds, budget)) tf_time.add(time_call(tf_call));
#endif
  row.tf_gflops = flops / tf_time.best() * 1e-9;
  return row;
}

std::vector<int> parse_threads(const char* text) {
  std::vector<int> out;
  for (const char* p = text; *p;) {
    out.push_back(std::atoi(p));
    while (*p && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return out;
}

void print_row(const Row& r, bool tsv) {
  const Shape& s = r.shape;
  if (tsv) {
    std::printf("%s\t%d\t%d\t%d\t%d\t%.2f\t%.2f\n", s.name.c_str(), s.M, s.N, s.K, r.threads, r.tf_gflops,
                r.blas_gflops);
    return;
  }
  std::printf("%-18s %5d %5d %5d %3d %9.1f", s.name.c_str(), s.M, s.N, s.K, r.threads, r.tf_gflops);
  if (r.blas_gflops > 0)
    std::printf(" %9.1f %6.2f  %.1e", r.blas_gflops, r.tf_gflops / r.blas_gflops, r.max_rel_diff);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> threads = {1, 2};
  int rounds = 10;
  bool tsv = false, want_cpu_clock = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = parse_threads(argv[++i]);
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--tsv"))
      tsv = true;
    else if (!std::strcmp(argv[i], "--clock") && i + 1 < argc)
      want_cpu_clock = !std::strcmp(argv[++i], "cpu");
    else {
      std::fprintf(stderr, "usage: %s [--threads 1,2] [--rounds 10] [--clock wall|cpu] [--tsv]\n", argv[0]);
      return 2;
    }
  }
  if (!tsv) {
    std::printf("Tinyformer GEMM on %s", tf::cpu_backend().name());
#ifdef TF_BENCH_OPENBLAS
    std::printf(" vs OpenBLAS %s (%s)", OPENBLAS_VERSION, openblas_get_corename());
#endif
    std::printf("; GFLOP/s, fastest of at least %d calls, %s clock\n", rounds,
                want_cpu_clock ? "process CPU (1 thread), wall (2+)" : "wall");
    std::printf("%-18s %5s %5s %5s %3s %9s", "product", "M", "N", "K", "thr", "tinyfmr");
#ifdef TF_BENCH_OPENBLAS
    std::printf(" %9s %6s  %s", "openblas", "ratio", "max rel diff");
#endif
    std::printf("\n");
  }
  for (int t : threads) {
    tf::ThreadPool::instance().set_threads(t);
    if (tf::ThreadPool::instance().threads() != t) {
      std::fprintf(stderr, "this build runs %d thread(s); skipping %d\n",
                   tf::ThreadPool::instance().threads(), t);
      continue;
    }
    g_cpu_clock = want_cpu_clock && t == 1;
    for (const Shape& s : model_shapes()) print_row(measure(s, t, rounds), tsv);
  }
  return 0;
}
