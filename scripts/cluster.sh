#!/usr/bin/env bash
# A local cluster of WOPIKit hosts on loopback, as Docs/running-several-hosts.md describes:
#   PostgreSQL 15 from Debian (initdb in a temporary folder, run as the unprivileged `postgres` user when started as
#   root), N `wopi-host serve --database …` processes, and nginx in front balancing round-robin with no stickiness.
# It prints the front URL (last, as `listening on URL`, like wopi-host), then runs until Ctrl-C (or SIGTERM) and stops everything cleanly.
#
#   scripts/cluster.sh [--hosts N] [--front-port PORT] [--bin DIR] [--log-level LEVEL] [--object-store URL]
#     --hosts       how many wopi-host processes (default 3)
#     --front-port  nginx's port on 127.0.0.1 (default 8080); every WOPISrc and OAuth URL points there
#     --bin         where wopi-host is (default: `swift build --show-bin-path`; build it first)
#     --log-level   the hosts' --log-level (default info; scripts/bench.py uses warning)
#     --object-store  the hosts' --object-store (s3://BUCKET?endpoint=…): the content of files in that bucket
# The first host starts with --demo (user demo, password demo); the others start once it is up.
set -euo pipefail
hosts=3
front_port=8080
bin=""
log_level=info
object_store=()
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts) hosts="$2"; shift 2 ;;
    --front-port) front_port="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --log-level) log_level="$2"; shift 2 ;;
    --object-store) object_store=(--object-store "$2"); shift 2 ;;
    *) echo "usage: $0 [--hosts N] [--front-port PORT] [--bin DIR] [--log-level LEVEL] [--object-store URL]" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
[ -n "$bin" ] || bin="$(swift build --show-bin-path)"
pg_bin=/usr/lib/postgresql/15/bin
for needed in "$bin/wopi-host" "$pg_bin/initdb" /usr/sbin/nginx; do
  [ -x "$needed" ] || { echo "missing $needed: run scripts/install-deps.sh --test and swift build" >&2; exit 1; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/wopikit-cluster.XXXXXX")"
chmod 755 "$work"
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres:postgres "$work"
  as_pg=(setpriv --reuid=postgres --regid=postgres --clear-groups)
fi
pids=()
stop() {
  trap - EXIT INT TERM
  echo "stopping the cluster"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  # Graceful shutdown gets 10 seconds, then the hosts are killed (the database keeps every acknowledged write).
  for _ in $(seq 1 100); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null || true
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT
trap 'stop; exit 0' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# PostgreSQL: one database, `wopi`, the role `wopi` trusted on loopback.
pg_port="$(free_port)"
"${as_pg[@]}" "$pg_bin/initdb" -D "$work/pg" -U wopi -A trust -E UTF8 --locale=C >"$work/initdb.log"
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
  -o "-p $pg_port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$work -c max_connections=200" start >/dev/null
"$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U wopi -d postgres -qc "CREATE DATABASE wopi" >/dev/null
database="postgres://wopi@127.0.0.1:$pg_port/wopi"
front="http://127.0.0.1:$front_port"

# The hosts, each with a data folder of its own (only its server.json and the demo client's secret).
upstream=""
for index in $(seq 1 "$hosts"); do
  demo=()
  [ "$index" -eq 1 ] && demo=(--demo)
  mkdir -p "$work/host$index"
  "$bin/wopi-host" serve "${demo[@]}" --data "$work/host$index" --database "$database" "${object_store[@]}" \
    --port 0 --public-url "$front" --log-level "$log_level" >"$work/host$index.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 600); do
    grep -q "^listening on " "$work/host$index.log" && break
    kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/host$index.log" >&2; exit 1; }
    sleep 0.1
  done
  address="$(grep -m1 "^listening on " "$work/host$index.log" | sed 's|^listening on http://||')"
  [ -n "$address" ] || { echo "host $index did not start:" >&2; cat "$work/host$index.log" >&2; exit 1; }
  # Into rotation only once ready: its database answers and its data folder takes writes.
  for _ in $(seq 1 600); do
    curl -fsS -o /dev/null "http://$address/readyz" 2>/dev/null && break
    kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/host$index.log" >&2; exit 1; }
    sleep 0.1
  done
  curl -fsS -o /dev/null "http://$address/readyz" || { echo "host $index is not ready:" >&2; cat "$work/host$index.log" >&2; exit 1; }
  upstream+="    server $address max_fails=1 fail_timeout=2s;"$'\n'
  echo "host $index: http://$address (pid ${pids[-1]}, log $work/host$index.log, data $work/host$index)"
done

# nginx: round-robin, no stickiness, bodies streamed (scripts/cluster-nginx.conf, the tests' balancer too).
nginx_conf="$(<scripts/cluster-nginx.conf)"
nginx_conf="${nginx_conf//@WORK@/$work}"
nginx_conf="${nginx_conf//@PORT@/$front_port}"
printf '%s\n' "${nginx_conf//@UPSTREAM@/$upstream}" >"$work/nginx.conf"
nginx -c "$work/nginx.conf" -p "$work" -e "$work/nginx-error.log"
echo "database: $database"
echo "front: $front (access log, one line per request with the host that answered: $work/nginx-access.log)"
echo "Ctrl-C stops the cluster."
echo "listening on $front"
while :; do sleep 3600 & wait $! || true; done
