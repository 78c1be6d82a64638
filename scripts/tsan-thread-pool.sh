#!/usr/bin/env bash
# The CPU thread pool's tests under ThreadSanitizer: its regions are claimed through atomics and its idle
# workers sleep through a mutex handshake, which ordinary tests pass by luck if an ordering is wrong. Only
# the pool, its test and the error type they throw are built (seconds on two cores), with the doctest
# runner of the C++ suites.
# Run by scripts/lab.sh test.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/tsan
mkdir -p "$out"
g++ -std=c++17 -O1 -g -fsanitize=thread -Icore -Itests tests/support/doctest_main.cpp \
  tests/backend/test_thread_pool.cpp core/backend/cpu/thread_pool.cpp \
  core/util/printable.cpp core/util/utf8.cpp -o "$out/thread_pool_tests" -lpthread
TSAN_OPTIONS=halt_on_error=1 "$out/thread_pool_tests"
