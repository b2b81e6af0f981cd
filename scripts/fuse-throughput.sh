#!/usr/bin/env bash
# Sequential throughput of a 256 MiB file through `wopi mount` (FUSE over a WOPI host) next to the same transfer
# done directly with the client (`wopi put` / `wopi get`), on one release-built `wopi-host serve` (sqlite) on
# 127.0.0.1, in one run. Prints a Markdown table. Needs /dev/fuse, fuse3 and curl. Usage: scripts/fuse-throughput.sh [MiB]
# With BIN=DIR, uses the wopi-host and wopi already built there (e.g. another scratch path) instead of building.
set -euo pipefail
size_mib=${1:-256}
cd "$(dirname "$0")/.."
if [ -n "${BIN:-}" ]; then
  bin="$BIN"
else
  swift build -c release --product wopi-host >&2
  swift build -c release --product wopi >&2
  bin=$(swift build -c release --show-bin-path)
fi
source scripts/demo-host.sh
demo_host "$bin" fuse-bench

head -c $((size_mib * 1024 * 1024)) /dev/urandom >"$work/payload.bin"
seconds() { local start=$(date +%s.%N); "$@" >/dev/null; awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'; }
rate() { awk -v s="$size_mib" -v t="$1" 'BEGIN { printf "%.1f", s / t }'; }

direct_put=$(seconds "$bin/wopi" put "$work/payload.bin" Documents/direct.bin)
direct_get=$(seconds "$bin/wopi" get Documents/direct.bin "$work/direct-back.bin")
cmp "$work/payload.bin" "$work/direct-back.bin"
"$bin/wopi" put "$work/payload.bin" Documents/for-mount-read.bin >/dev/null

demo_mount "$bin"
# Write: dd returns after close(), which uploads with the lock (the whole save, as an editor sees it).
mount_write=$(seconds dd if="$work/payload.bin" of="$work/mnt/Documents/mount.bin" bs=1M status=none)
mount_read=$(seconds dd if="$work/mnt/Documents/for-mount-read.bin" of="$work/mount-back.bin" bs=1M status=none)
cmp "$work/payload.bin" "$work/mount-back.bin"
"$bin/wopi" get Documents/mount.bin "$work/mount-written.bin" >/dev/null
cmp "$work/payload.bin" "$work/mount-written.bin"

echo "| ${size_mib} MiB, sqlite host on 127.0.0.1 | write (s) | write MiB/s | read (s) | read MiB/s |"
echo "|---|---|---|---|---|"
printf '| direct: `wopi put` / `wopi get` | %.2f | %s | %.2f | %s |\n' "$direct_put" "$(rate "$direct_put")" \
  "$direct_get" "$(rate "$direct_get")"
printf '| through `wopi mount`: `dd` | %.2f | %s | %.2f | %s |\n' "$mount_write" "$(rate "$mount_write")" \
  "$mount_read" "$(rate "$mount_read")"
