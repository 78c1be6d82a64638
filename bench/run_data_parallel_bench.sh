#!/usr/bin/env bash
# Benchmark: data-parallel training on this machine's cores. The course's story step (MyTransformer(2002),
# 64 sequences of 32 tokens, diffusion) in tokens per second three ways, alternating within one run (A B C,
# A B C, ...) so that load from elsewhere falls on all three alike:
#   A  1 rank x 1 thread      B  2 ranks x 1 thread (mpirun)      C  1 rank x 2 threads
# Each figure is the run's final tokens_per_s (the global batch's tokens over the steps' wall time, as rank
# 0 sees it: its exchanges included); a second table gives each run's median step, which on a shared
# machine leaves out the steps that other work interrupted (a 2-rank step stalls when either core is
# taken). Raise the shell's autogroup first on a shared machine
# (echo -15 > /proc/self/autogroup). With BEFORE=path/to/an/older/tinyformer two more runs per round,
#   A0  1 rank x 1 thread of that build      B0  2 ranks x 1 thread of that build,
# measure a change to the data-parallel step against the build before it, in the same rounds.
#   [BEFORE=cli] bench/run_data_parallel_bench.sh [steps per run, default 30] [rounds, default 3]
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-30}
rounds=${2:-3}
cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build/native tinyformer >/dev/null
cli=build/native/cli/tinyformer
train=(train --task stories --data builtin --steps "$steps" --no-eval)
mpirun=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" = 0 ] && mpirun+=(--allow-run-as-root)

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# "TOTAL:MEDIAN": the command's final JSON line's tokens_per_s, and its median step's (rank 0's --log from
# step 6 on), which leaves out the steps that another process on a shared machine interrupted.
tokens_per_s() {
  rm -f "$log"
  "$@" --log "$log" 2>/dev/null | tail -1 | LOG="$log" /usr/bin/python3 -c 'import json, os, statistics, sys
total = json.load(sys.stdin)["tokens_per_s"]  # first: the run has ended and its log is whole
steps = [json.loads(line)["tokens_per_s"] for line in open(os.environ["LOG"])][5:]
print("%s:%s" % (total, statistics.median(steps)))'
}

rows=$(for round in $(seq "$rounds"); do
  a=$(tokens_per_s "$cli" "${train[@]}" --threads 1)
  b=$(tokens_per_s "${mpirun[@]}" -np 2 "$cli" "${train[@]}" --threads 1)
  c=$(tokens_per_s "$cli" "${train[@]}" --threads 2)
  a0=${BEFORE:+$(tokens_per_s "$BEFORE" "${train[@]}" --threads 1)}
  b0=${BEFORE:+$(tokens_per_s "${mpirun[@]}" -np 2 "$BEFORE" "${train[@]}" --threads 1)}
  echo "$a $b $c $a0 $b0"
done)
ROWS="$rows" /usr/bin/python3 - <<'PY'
import os, statistics
pairs = [[cell.split(":") for cell in line.split()] for line in os.environ["ROWS"].splitlines()]
before = len(pairs[0]) == 5
head = ("round", "A: 1 rank x 1 thread", "B: 2 ranks x 1 thread", "C: 1 rank x 2 threads", "B / A", "B / C")
head += ("A0: 1 x 1, before", "B0: 2 x 1, before", "B0 / A0") if before else ()
print("%6s %22s %22s %22s %6s %6s" % head[:6] + (" %18s %18s %7s" % head[6:] if before else ""))
def line(name, a, b, c, a0=None, b0=None):
    print("%6s %18.0f t/s %18.0f t/s %18.0f t/s %5.2fx %5.2fx" % (name, a, b, c, b / a, b / c) +
          (" %14.0f t/s %14.0f t/s %6.2fx" % (a0, b0, b0 / a0) if before else ""))
for title, which in (("the runs' tokens per second (the figure):", 0), ("their median steps':", 1)):
    print(title)
    rows = [[float(cell[which]) for cell in line] for line in pairs]
    for i, r in enumerate(rows, 1):
        line(i, *r)
    line("median", *[statistics.median(col) for col in zip(*rows)])
PY
