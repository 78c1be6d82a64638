#!/usr/bin/env bash
# Every course id the code cites (A1-A10, B1-B5, C1-C10, D1-D7 in comments, view ids, test names; E1-E3 for
# the lab's extensions beyond the course) must have a row in docs/course-map.md, the key that explains them.
# CI runs this; `scripts/check-course-ids.sh MAP` checks another map file (how the check itself was tried).
set -euo pipefail
cd "$(dirname "$0")/.."
map=${1:-docs/course-map.md}
[ -f "$map" ] || { echo "course ids: $map is missing"; exit 1; }

# Ids with a row of their own: lines such as "| A3 | ...".
mapped=$(grep -oE '^\| [A-E](10|[1-9]) \|' "$map" | tr -d '| ' | sort -u)
# The project's source files (tracked or new, not ignored); a range "B1–B3" cites both ends.
sources() {
  git ls-files --cached --others --exclude-standard core cli wasm web tests bench |
    grep -E '\.(cpp|hpp|cu|cuh|js|mjs|ts|py|sh|html)$' | while read -r f; do [ -f "$f" ] && echo "$f"; done
}
cited=$(sources | xargs grep -ohE '\b[A-E](10|[1-9])\b' | sort -u)

missing=$(comm -23 <(echo "$cited") <(echo "$mapped"))
if [ -n "$missing" ]; then
  echo "course ids cited in the code but missing from $map: $(echo $missing)"
  for id in $missing; do
    sources | xargs grep -lwE "$id" | sed "s/^/  $id: /"
  done
  exit 1
fi
echo "course ids: $(echo "$cited" | wc -l) cited in the code, all in $map ($(echo "$mapped" | wc -l) rows)"
