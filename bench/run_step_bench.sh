#!/usr/bin/env bash
# Benchmark: Tinyformer's training steps and story writing beside PyTorch (Debian's python3-torch on
# OpenBLAS), both measured in this run on this machine, at 1 and 2 threads. OpenBLAS's core-type overrides
# are unset for this command only, so PyTorch gets its best kernels.
#   bench/run_step_bench.sh [steps] [--cpu-time]   (--cpu-time: both sides time 1 thread by CPU time, for a
#                                                   machine loaded by other work; 2 threads stay wall-clock)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh bench  # PyTorch on OpenBLAS and the benchmark-only packages
cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build/native step_bench >/dev/null
ours=$(build/native/bench/step_bench "${1:-20}" ${2:-})
torch() { env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp \
  /usr/bin/python3 bench/torch_reference.py "$@"; }
torch1=$(torch step --threads 1 ${2:-})
torch2=$(torch step --threads 2)
write1=$(torch write --threads 1)
write2=$(torch write --threads 2)
OURS="$ours" T1="$torch1" T2="$torch2" W1="$write1" W2="$write2" /usr/bin/python3 - <<'PY'
import json, os
ours = [json.loads(l) for l in os.environ["OURS"].splitlines()]
torch = {1: json.loads(os.environ["T1"]), 2: json.loads(os.environ["T2"])}
write = {1: json.loads(os.environ["W1"]), 2: json.loads(os.environ["W2"])}
print(f"{'threads':>7} {'what':<28} {'tinyformer ms':>14} {'pytorch ms':>11} {'time ratio':>11}")
for o in ours:
    t, w = torch[o["threads"]], write[o["threads"]]
    rows = [("MyTransformer diffusion step", o["diffusion"]["ms"], t["diffusion_ms"]),
            ("MyTransformer causal step", o["causal"]["ms"], t["causal_ms"]),
            ("sorter step (B128)", o["sorter_ms"], t["sorter_ms"]),
            ("32-token story, KV cache", o["story_kv_cache_ms"], w["story_ms"]),
            ("32-token story, recompute", o["story_recompute_ms"], w["story_ms"])]
    for name, a, b in rows:
        print(f"{o['threads']:>7} {name:<28} {a:>14.1f} {b:>11.1f} {a / b:>10.2f}x")
    print(f"{o['threads']:>7} {'diffusion GFLOP/s':<28} {o['diffusion']['gflops_per_s']:>14.1f}")
PY
