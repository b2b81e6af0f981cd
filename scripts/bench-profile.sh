#!/usr/bin/env bash
# scripts/bench-profile.sh [STORAGE] [SECONDS] [OPS]: a CPU profile of `wopi-host serve` under wrk load
# (CheckFileInfo by default; OPS as in Benchmarks/wrk/wopi.lua, e.g. GET_LOCK), with Linux perf sampling
# cpu-clock (a software event, so it works in VMs without hardware counters). Prints the hottest symbols by
# self time and by inclusive time. Uses the release build unless BIN is set.
set -euo pipefail
storage="${1:-sqlite}"
seconds="${2:-10}"
ops="${3:-}"
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${BIN:-$(cd "$root" && swift build -c release --show-bin-path)}"
work="$(mktemp -d)"
trap 'kill "$(cat "$work/pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT
ROOT="$root" python3 - "$bin" "$storage" "$work" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["ROOT"], "scripts"))
import bench
bin_dir, storage, work = sys.argv[1:4]
host = bench.Host(bin_dir, storage, work)
host.wait_listening()
_, scenarios = host.prepare(10)
open(os.path.join(work, "pid"), "w").write(str(host.process.pid))
open(os.path.join(work, "url"), "w").write(host.url)
for name, (paths, ops) in scenarios.items():
    key = "lockfiles" if ops else name.split(" ")[0]
    open(os.path.join(work, key + ".txt"), "w").write("\n".join(paths) + "\n")
host.process = None  # keep serving after this script exits
PY
pid="$(cat "$work/pid")"
paths="$work/CheckFileInfo.txt"
[ -n "$ops" ] && paths="$work/lockfiles.txt"
perf record -e cpu-clock -F 2000 -g -p "$pid" -o "$work/perf.data" -- sleep "$seconds" >/dev/null 2>&1 &
recorder=$!
WOPI_PATHS="$paths" WOPI_OPS="$ops" wrk -t 16 -c 16 -d "${seconds}s" -s "$root/Benchmarks/wrk/wopi.lua" \
  "$(cat "$work/url")" | grep -E "Requests/sec|requests in"
wait "$recorder"
[ -n "${KEEP:-}" ] && cp "$work/perf.data" "$KEEP"
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
report() {
  perf report -i "$work/perf.data" "$@" -g none --sort symbol --stdio 2>/dev/null | grep -E "^ +[0-9]" \
    | sed -E 's/ +- +- *$//; s/ +$//' | demangle | cut -c1-200
}
echo "== self time (top 40)"
report --no-children | head -40
echo "== inclusive time (top ${TOP:-80})"
report --children | head -"${TOP:-80}"
