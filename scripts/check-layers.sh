#!/usr/bin/env bash
# The floors of core/ (docs/architecture.md draws them): a folder includes its own files and folders on
# lower floors only, never one on its own floor or above, and a backend's folder (core/backend/<name>/)
# includes the backend table's headers and util/, never another backend's folder. An include that runs up
# a floor fails CI here, naming the file, the line and both floors.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A FLOOR=(
  [util]=1
  [backend]=2
  [profile]=3 [story_gen]=3
  [tensor]=4
  [autograd]=5
  [ops]=6 [optim]=6 [data]=6 [io]=6
  [nn]=7 [dist]=7
  [checkpoint]=8 [interp]=8 [sample]=8
  [train]=9
  [run]=10
  [tinyformer.hpp]=11 [runtime.hpp]=11 [runtime.cpp]=11
)

status=0
# The floor's name of a path under core/: its first folder, or the file's name for the public headers.
part_of() { local p=${1#core/}; echo "${p%%/*}"; }

while IFS= read -r file; do
  from=$(part_of "$file")
  if [ -z "${FLOOR[$from]:-}" ]; then
    echo "$file: core/$from/ has no floor: give it one in scripts/check-layers.sh and docs/architecture.md"
    status=1
    continue
  fi
  backend_dir=""
  [[ "$file" =~ ^core/backend/([a-z_]+)/ ]] && backend_dir=${BASH_REMATCH[1]}
  while IFS=: read -r line header; do
    [[ "$header" == */* ]] || continue  # a file of its own folder
    to=${header%%/*}
    [ -n "${FLOOR[$to]:-}" ] || continue  # not the core's (a library's header)
    if [ "$to" != "$from" ] && [ "${FLOOR[$to]}" -ge "${FLOOR[$from]}" ]; then
      echo "$file:$line includes \"$header\": $from/ (floor ${FLOOR[$from]}) may not include $to/ (floor ${FLOOR[$to]})"
      status=1
    fi
    if [ -n "$backend_dir" ] && [[ "$header" =~ ^backend/([a-z_]+)/ ]] && [ "${BASH_REMATCH[1]}" != "$backend_dir" ]; then
      echo "$file:$line includes \"$header\": one backend's folder may not include another's"
      status=1
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" |
             sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
done < <(git ls-files core | grep -E '\.(cpp|hpp|cu|cuh)$')

[ "$status" = 0 ] && echo "layers: every include in core/ stays on its floor or goes down"
exit "$status"
