#!/usr/bin/env bash
# Lines of code per folder (the line budget CI prints so growth shows), and files over 600 lines.
cd "$(dirname "$0")/.."
echo "lines of code per folder:"
for d in core/* cli wasm web tests bench; do
  [ -d "$d" ] || continue
  n=$(git ls-files "$d" | grep -E '\.(cpp|hpp|cu|cuh|js|mjs|ts|css|html|py|sh)$' | xargs -r cat | wc -l)
  printf "  %-24s %6d\n" "$d" "$n"
done
git ls-files | grep -E '\.(cpp|hpp|cu|cuh|js|mjs)$' | while read -r f; do
  n=$(wc -l <"$f")
  if [ "$n" -gt 600 ]; then echo "  over 600 lines: $f ($n)"; fi
done
