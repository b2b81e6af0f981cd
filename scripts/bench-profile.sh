#!/usr/bin/env bash
# scripts/bench-profile.sh [STORAGE] [SECONDS] [OPS]: a CPU profile of `wopi-host serve` under wrk load
# (CheckFileInfo by default; OPS as in Benchmarks/wrk/wopi.lua, e.g. GET_LOCK), with Linux perf sampling
# cpu-clock (a software event, so it works in VMs without hardware counters). Prints the hottest symbols by
# self time and by inclusive time. Uses the release build unless BIN is set. STORAGE is sqlite, fs or postgres
# (one host of scripts/cluster.sh on its PostgreSQL, loaded directly; the database's own CPU is not sampled).
set -euo pipefail
storage="${1:-sqlite}"
seconds="${2:-10}"
ops="${3:-}"
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${BIN:-$(cd "$root" && swift build -c release --show-bin-path)}"
work="$(mktemp -d)"
chmod 755 "$work"  # PostgreSQL (postgres) runs in a folder below it
stop() {
  local server
  server="$(cat "$work/pid" 2>/dev/null)" || true
  if [ -n "$server" ] && kill "$server" 2>/dev/null; then
    # The cluster stops its hosts, nginx and PostgreSQL in its folder inside $work: wait for it.
    for _ in $(seq 1 300); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$work"
}
trap stop EXIT
ROOT="$root" python3 - "$bin" "$storage" "$work" <<'PY'
import json, os, sys
sys.dont_write_bytecode = True  # no scripts/__pycache__ in the clone
sys.path.insert(0, os.path.join(os.environ["ROOT"], "scripts"))
import bench
bin_dir, storage, work = sys.argv[1:4]
if storage == "postgres":
    host = bench.Cluster(bin_dir, work, 1)
    host.wait_listening()
    target = host.hosts[0]
else:
    host = bench.Host(bin_dir, storage, work)
    target = bench.Endpoint(host.name, host.wait_listening(), host.pids())
_, scenarios = host.prepare(10)
open(os.path.join(work, "pid"), "w").write(str(host.process.pid))  # what the EXIT trap stops
open(os.path.join(work, "profiled"), "w").write(str(target.pids()[0]))
open(os.path.join(work, "url"), "w").write(target.url)
for name, (paths, ops) in scenarios.items():
    key = "lockfiles" if ops else name.split(" ")[0]
    open(os.path.join(work, key + ".txt"), "w").write("\n".join(paths) + "\n")
host.process = None  # keep serving after this script exits
PY
pid="$(cat "$work/profiled")"
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
# `head` closes the pipe early; under pipefail that SIGPIPE would end the script before the second table.
report --no-children | head -40 || true
echo "== inclusive time (top ${TOP:-80})"
report --children | head -"${TOP:-80}" || true
