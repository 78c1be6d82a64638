#!/usr/bin/env bash
# How long a newcomer waits for the lab: a fresh Debian 12 (debootstrap of bookworm, kept as a tarball under
# build/fresh-start/ for the next run) in a chroot does what the README says (apt-get install git nodejs npm,
# git clone, npm start); printed at each step: wall time and the CPU time of everything in the chroot (a
# cpuacct cgroup), until the page has loaded its module in headless Chromium (run from outside the chroot)
# and until every build of the module is ready. The README's "Build times" holds the figures.
#   sudo bash scripts/fresh-start.sh [PORT]      (root: debootstrap, chroot, mounts)
# The clone is of this checkout's HEAD. Where this machine trusts extra CAs (/usr/local/share/ca-certificates,
# a proxy in front of the npm registry, say) the chroot trusts them too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
port=${1:-18322}
work=$root/build/fresh-start
base=$work/bookworm.tar
chroot_dir=$work/root
cgroup=/sys/fs/cgroup/cpuacct/tinyformer-fresh-start

mkdir -p "$work"
if [[ ! -f $base ]]; then
  debootstrap bookworm "$work/base" http://deb.debian.org/debian >"$work/debootstrap.log"
  tar -C "$work/base" -cf "$base" . && rm -rf "$work/base"
fi
unmount() { for m in dev/pts dev proc; do mountpoint -q "$chroot_dir/$m" && umount "$chroot_dir/$m"; done; return 0; }
unmount
rm -rf "$chroot_dir" && mkdir -p "$chroot_dir" && tar -C "$chroot_dir" -xf "$base"
mount -t proc proc "$chroot_dir/proc" && mount --bind /dev "$chroot_dir/dev" && mount --bind /dev/pts "$chroot_dir/dev/pts"
trap unmount EXIT
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
mkdir -p "$chroot_dir/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$chroot_dir/usr/local/share/ca-certificates/" 2>/dev/null || true
git -C "$root" bundle create "$chroot_dir/root/tinyformer.bundle" HEAD 2>/dev/null

cat >"$chroot_dir/root/newcomer.sh" <<EOF
#!/bin/bash
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
apt-get update -q
apt-get install -y -q --no-install-recommends git nodejs npm
update-ca-certificates >/dev/null 2>&1
echo "=== installed git nodejs npm" >&2
git clone -q /root/tinyformer.bundle /root/tinyformer
cd /root/tinyformer
echo "=== cloned" >&2
exec npm start -- --port $port
EOF

echo -15 >/proc/self/autogroup 2>/dev/null || true  # this measurement, not the rest of the machine, is what counts
[[ -d $cgroup ]] && rmdir "$cgroup"
mkdir -p "$cgroup"
cpu() { awk '{s += $2} END {printf "%.0f", s / 100}' "$cgroup/cpuacct.stat"; }
t0=$(date +%s.%N)
say() { printf '%-50s %5.0f s wall %5s s CPU\n' "$1" "$(awk -v now="$(date +%s.%N)" -v t0="$t0" 'BEGIN {print now - t0}')" "$(cpu)"; }
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
log=$work/newcomer.log
: >"$log"
bash -c "echo \$\$ >$cgroup/tasks; exec chroot $chroot_dir /bin/bash /root/newcomer.sh" >"$log" 2>&1 &
newcomer=$!  # the same process from bash to npm start (each execs the next)
# Everything npm start left running in the chroot is ended before the mounts go.
trap 'xargs -r kill -9 <"$cgroup/tasks" 2>/dev/null || true; while [[ -s $cgroup/tasks ]]; do sleep 1; done; unmount' EXIT
trap 'exit 1' INT TERM
seen=0
until grep -q "Tinyformer lab:" "$log"; do
  kill -0 $newcomer 2>/dev/null || { tail -20 "$log"; echo "fresh-start: npm start ended" >&2; exit 1; }
  while (($(grep -c "^===" "$log") > seen)); do
    seen=$((seen + 1))
    say "$(grep "^===" "$log" | sed -n "${seen}p" | cut -c5-)"
  done
  sleep 1
done
say "npm start serves the page"
node "$root/scripts/fresh-start-page.mjs" "http://127.0.0.1:$port/" && say "the page has loaded its module"
builds=$chroot_dir/root/tinyformer/web/wasm/builds.json
until grep -q '"st": "ready", "mt": "ready", "gpu": "ready"' "$builds"; do
  grep -q failed "$builds" && { echo "fresh-start: a build failed: $(cat "$builds")" >&2; exit 1; }
  sleep 2
done
say "every build ready (the others in the background)"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
