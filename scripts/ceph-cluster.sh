#!/usr/bin/env bash
# A throw-away single-node Ceph cluster for the object-storage suites and benchmark: one monitor, one OSD on memstore
# (in RAM, 4 GiB at most) and the RADOS Gateway (S3, beast frontend), all on 127.0.0.1, from Debian's packages
# (scripts/install-deps.sh --test), without systemd. Everything it writes is inside DIR: ceph.conf, keyring, the
# monitor's store, pid files and admin sockets (DIR/run), logs (DIR/log); nothing reads /etc/ceph or /var/lib/ceph.
# Clusters in different folders run side by side: every port is picked free at start.
#
#   scripts/ceph-cluster.sh start DIR    DIR must not exist or be empty. Starts the daemons in the background (detached,
#                                        their output in DIR/log), waits until the OSD is up and S3 answers (about 2 s),
#                                        creates an S3 user and writes DIR/s3.env (mode 0600, shell-sourceable):
#                                          S3_ENDPOINT=http://127.0.0.1:PORT
#                                          S3_REGION=default
#                                          AWS_ACCESS_KEY_ID=...
#                                          AWS_SECRET_ACCESS_KEY=...
#                                        and prints its path as the last line on stdout. On failure it prints the tails
#                                        of the daemons' logs to stderr, stops what it started and exits non-zero.
#   scripts/ceph-cluster.sh stop DIR     stops the gateway, then the OSD, then the monitor (by their pid files, SIGKILL
#                                        after a bounded wait); exits 0 also when nothing runs. DIR stays (logs), the
#                                        caller removes it.
#   scripts/ceph-cluster.sh status DIR   exits 0 when the three daemons run and S3 answers, 1 otherwise.
#   scripts/ceph-cluster.sh kill-gateway DIR    SIGKILLs the gateway alone (the tests of a gateway dying mid-request).
#   scripts/ceph-cluster.sh start-gateway DIR   starts it again on the same port, waits until S3 answers and prints
#                                               its pid.
#
# For example:  dir="$(mktemp -d)"; set -a; . "$(scripts/ceph-cluster.sh start "$dir/ceph")"; set +a
#               ... aws/boto3/s3cmd against $S3_ENDPOINT (path-style, SigV4) ...
#               scripts/ceph-cluster.sh stop "$dir/ceph"; rm -rf "$dir"
# Ports: the monitor's v2 and v1 ports and the S3 port are picked at random among the free ones below the kernel's
# ephemeral range (so no outgoing connection takes them meanwhile); the OSD binds the first free ports from 6800 up.
# CEPH_CLUSTER_TIMEOUT (seconds, default 60) bounds the wait for readiness.
set -euo pipefail
unset CEPH_ARGS CEPH_CONF
umask 077

usage() { echo "usage: $0 start|stop|status|kill-gateway|start-gateway DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
command="$1"
dir="$2"
[ -n "$dir" ] || usage
# The daemons, in stopping order: name, program, seconds to exit after SIGTERM before SIGKILL.
daemons=("client.rgw.gw radosgw 10" "osd.0 ceph-osd 20" "mon.a ceph-mon 10")
py=/usr/bin/python3 # Debian's (ceph-common's) python, not whatever python3 is first on PATH

say() { echo "ceph-cluster: $*" >&2; }
die() { say "$*"; exit 1; }

# The daemon's pid, from its pid file, when that process is alive and is this cluster's (its command line names this
# DIR's ceph.conf; a reused pid or a zombie is not).
running_pid() {
  local pid
  pid="$(cat "$dir/run/$1.pid" 2>/dev/null)" || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  tr '\0' '\n' 2>/dev/null <"/proc/$pid/cmdline" | grep -qxF -- "$dir/ceph.conf" || return 1
  echo "$pid"
}

# During start: the daemon (a child of this script, maybe not yet exec'd) has not exited.
alive() {
  local pid state
  pid="$(cat "$dir/run/$1.pid" 2>/dev/null)" || return 1
  state="$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$pid/status" 2>/dev/null)" || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

stop_daemon() { # name grace
  local pid steps
  pid="$(running_pid "$1")" || { rm -f "$dir/run/$1.pid"; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  steps=$(($2 * 10))
  while [ "$steps" -gt 0 ] && running_pid "$1" >/dev/null; do sleep 0.1; steps=$((steps - 1)); done
  if running_pid "$1" >/dev/null; then
    say "$1 (pid $pid) did not exit within $2 s of SIGTERM: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    steps=50
    while [ "$steps" -gt 0 ] && running_pid "$1" >/dev/null; do sleep 0.1; steps=$((steps - 1)); done
  fi
  rm -f "$dir/run/$1.pid"
}

stop_all() {
  local entry name program grace
  for entry in "${daemons[@]}"; do
    read -r name program grace <<<"$entry"
    stop_daemon "$name" "$grace"
  done
}

s3_endpoint() {
  local port
  port="$(sed -n 's/^rgw frontends = beast endpoint=127\.0\.0\.1:\([0-9]*\)$/\1/p' "$dir/ceph.conf" 2>/dev/null)"
  [ -n "$port" ] && echo "http://127.0.0.1:$port"
}

s3_answers() { # any HTTP answer (an anonymous GET / gets 200 with an empty bucket list)
  local code
  code="$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$1/" 2>/dev/null)" || true
  [ -n "$code" ] && [ "$code" != "000" ]
}

# The daemons' output and logs, and the log of the step that failed (if not a daemon's).
step_log=""
log_tails() {
  local file
  for file in mon.a.out mon.a.log osd.0.out osd.0.log client.rgw.gw.out client.rgw.gw.log "$step_log"; do
    if [ -z "$file" ] || [ ! -s "$dir/log/$file" ]; then continue; fi
    echo "---- last lines of $dir/log/$file" >&2
    grep -v '^[[:space:]]*$' "$dir/log/$file" | tail -n 15 >&2 || true
  done
}

# Free ports at random below the ephemeral range, held together while picked so the three differ.
pick_ports() {
  "$py" - "$1" <<'EOF'
import random, socket, sys
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
held, ports = [], []
while len(ports) < int(sys.argv[1]):
    port = random.randrange(10000, max(low, 10001))
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        s.close()
        continue
    held.append(s)
    ports.append(port)
print(*ports)
EOF
}

ceph_cli() { timeout 30 ceph -c "$dir/ceph.conf" --connect-timeout 20 "$@"; }

# Detached (own session, no terminal, output to DIR/log), foreground so the pid is theirs.
launch() { # name program args...
  local name="$1"
  shift
  # The daemon keeps no descriptor of the caller's beyond 0-2 (its output goes to the log): a caller that waits
  # for the script's pipes to close (Foundation's Process) then sees the script end.
  (
    for fd in "/proc/$BASHPID/fd/"*; do
      fd="${fd##*/}"
      [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
    done
    exec setsid "$@" -f -c "$dir/ceph.conf" </dev/null >>"$dir/log/$name.out" 2>&1
  ) &
  echo $! >"$dir/run/$name.pid"
}

# The gateway alone, for the tests of a gateway that dies mid-request: SIGKILL (no clean shutdown), then a new one
# on the same port and pools; the monitor and the OSD (and the objects they hold) stay.
kill_gateway() {
  local pid steps=100
  pid="$(running_pid client.rgw.gw)" || die "the gateway of $dir is not running"
  kill -KILL "$pid"
  while [ "$steps" -gt 0 ] && running_pid client.rgw.gw >/dev/null; do sleep 0.1; steps=$((steps - 1)); done
  running_pid client.rgw.gw >/dev/null && die "the gateway (pid $pid) survived SIGKILL"
  rm -f "$dir/run/client.rgw.gw.pid"
}

start_gateway() {
  local endpoint deadline=$((SECONDS + ${CEPH_CLUSTER_TIMEOUT:-60}))
  running_pid client.rgw.gw >/dev/null && die "the gateway of $dir is already running"
  endpoint="$(s3_endpoint)" || die "no gateway port in $dir/ceph.conf"
  launch client.rgw.gw radosgw -n client.rgw.gw
  until s3_answers "$endpoint"; do
    alive client.rgw.gw || { step_log=""; log_tails; die "the gateway exited while starting"; }
    [ "$SECONDS" -lt "$deadline" ] || die "the gateway did not answer at $endpoint in ${CEPH_CLUSTER_TIMEOUT:-60} s"
    sleep 0.1
  done
  cat "$dir/run/client.rgw.gw.pid"
}

start() {
  local missing=() entry program package
  for entry in ceph-mon:ceph-mon ceph-osd:ceph-osd monmaptool:ceph-base radosgw:radosgw radosgw-admin:ceph-common \
    ceph:ceph-common ceph-authtool:ceph-common curl:curl timeout:coreutils setsid:util-linux "$py:python3"; do
    program="${entry%:*}"
    package="${entry##*:}"
    command -v "$program" >/dev/null || missing+=("$program (package $package)")
  done
  [ ${#missing[@]} -eq 0 ] || die "missing $(printf '%s, ' "${missing[@]}" | sed 's/, $//'): run scripts/install-deps.sh --test"
  bad_path() { # ceph.conf has no quoting
    case "$1" in *[[:space:]\;\#\$=\[\]\'\"\\]*) return 0 ;; esac
    return 1
  }
  bad_path "$dir" && die "$dir: choose a folder whose path has no spaces or any of ;#\$=[]'\"\\ (ceph.conf)"
  local created=0
  if [ -e "$dir" ]; then
    [ -d "$dir" ] || die "$dir exists and is not a folder"
    [ -z "$(ls -A "$dir")" ] || die "$dir is not empty"
  else
    mkdir -p "$dir"
    created=1
  fi
  dir="$(cd "$dir" && pwd -P)"
  if bad_path "$dir"; then
    [ "$created" -eq 0 ] || rmdir "$dir"
    die "$dir: choose a folder whose path has no spaces or any of ;#\$=[]'\"\\ (ceph.conf)"
  fi
  mkdir -p "$dir/run" "$dir/log" "$dir/crash" "$dir/rgw" "$dir/osd.0"
  start_ok=0
  trap 'if [ "$start_ok" -eq 0 ]; then say "start failed in $dir"; log_tails; stop_all; fi' EXIT
  trap 'exit 130' INT TERM HUP

  local mon_v2 mon_v1 s3_port fsid osd_uuid
  read -r mon_v2 mon_v1 s3_port <<<"$(pick_ports 3)"
  fsid="$(cat /proc/sys/kernel/random/uuid)"
  osd_uuid="$(cat /proc/sys/kernel/random/uuid)"
  cat >"$dir/ceph.conf" <<EOF
# Written by scripts/ceph-cluster.sh: a throw-away single-node cluster, everything inside $dir.
[global]
fsid = $fsid
mon host = [v2:127.0.0.1:$mon_v2,v1:127.0.0.1:$mon_v1]
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind ipv6 = false
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = $dir/keyring
run dir = $dir/run
crash dir = $dir/crash
log file = $dir/log/\$name.log
mon cluster log file = $dir/log/cluster.log
# One OSD: every pool has a single replica, placed on OSDs rather than hosts.
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon max pg per osd = 1000
mon allow pool delete = true
mon warn on pool no redundancy = false
# With the default 1 s, start-up takes 13 s instead of 2, and the first bucket and the first object writes 2 s each.
paxos propose interval = 0.05
# A nearly full disk must not stop a test cluster's monitor.
mon data avail warn = 1
mon data avail crit = 0

[mon]
mon data = $dir/\$name
admin socket = $dir/run/\$name.asok
pid file = $dir/run/\$name.pid

[osd]
osd data = $dir/\$name
osd objectstore = memstore
memstore device bytes = 4294967296
admin socket = $dir/run/\$name.asok
pid file = $dir/run/\$name.pid

[client.rgw.gw]
rgw frontends = beast endpoint=127.0.0.1:$s3_port
rgw data = $dir/rgw
rgw init timeout = 60
admin socket = $dir/run/\$name.asok
pid file = $dir/run/\$name.pid
EOF

  # Keys: the monitor imports them all (with their capabilities) when its store is made.
  {
    ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. --cap mon 'allow *'
    ceph-authtool "$dir/keyring" --gen-key -n client.admin \
      --cap mon 'allow *' --cap osd 'allow *' --cap mds 'allow *' --cap mgr 'allow *'
    ceph-authtool "$dir/keyring" --gen-key -n osd.0 \
      --cap mon 'allow profile osd' --cap osd 'allow *' --cap mgr 'allow profile osd'
    ceph-authtool "$dir/keyring" --gen-key -n client.rgw.gw --cap mon 'allow rw' --cap osd 'allow rwx' --cap mgr 'allow rw'
    monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_v2,v1:127.0.0.1:$mon_v1]" "$dir/monmap"
  } >"$dir/log/setup.log" 2>&1 || { step_log=setup.log; die "could not make the keys and monitor map"; }
  ceph-osd -c "$dir/ceph.conf" -i 0 --mkfs --osd-uuid "$osd_uuid" --no-mon-config >"$dir/log/osd-mkfs.log" 2>&1 &
  local osd_mkfs=$!
  ceph-mon -c "$dir/ceph.conf" -i a --mkfs --monmap "$dir/monmap" --keyring "$dir/keyring" \
    >"$dir/log/mon-mkfs.log" 2>&1 || { step_log=mon-mkfs.log; die "ceph-mon --mkfs failed"; }
  wait "$osd_mkfs" || { step_log=osd-mkfs.log; die "ceph-osd --mkfs failed"; }

  launch mon.a ceph-mon -i a
  ceph_cli osd new "$osd_uuid" 0 >>"$dir/log/setup.log" 2>&1 ||
    { step_log=setup.log; die "the monitor did not answer (ceph osd new)"; }
  # Only once the monitor answers: a daemon whose first connection is refused retries 3 s later.
  launch osd.0 ceph-osd -i 0

  local endpoint="http://127.0.0.1:$s3_port" deadline=$((SECONDS + ${CEPH_CLUSTER_TIMEOUT:-60}))
  # Are the daemons launched so far still there, and is there time left?
  going() { # what we wait for
    local entry name
    for entry in "${daemons[@]}"; do
      read -r name _ <<<"$entry"
      [ -f "$dir/run/$name.pid" ] || continue
      alive "$name" || die "$name exited while waiting for $1"
    done
    [ "$SECONDS" -lt "$deadline" ] || die "not ready after ${CEPH_CLUSTER_TIMEOUT:-60} s: still waiting for $1"
  }
  until ceph_cli osd stat -f json 2>/dev/null | grep -q '"num_up_osds": *1[,}]'; do
    going "the OSD to be up (ceph osd stat)"
    sleep 0.1
  done
  # The gateway only once the OSD is up: the placement groups of the pools it makes before would wait for the
  # monitor's next tick (5 s).
  launch client.rgw.gw radosgw -n client.rgw.gw
  until s3_answers "$endpoint"; do
    going "S3 at $endpoint"
    sleep 0.1
  done

  local keys access secret
  keys="$("$py" -c 'import secrets, string
a = string.ascii_uppercase + string.digits
print("".join(secrets.choice(a) for _ in range(20)), "".join(secrets.choice(a + string.ascii_lowercase) for _ in range(40)))')"
  read -r access secret <<<"$keys"
  timeout 60 radosgw-admin -c "$dir/ceph.conf" -n client.admin user create --uid=wopikit --display-name=WOPIKit \
    --access-key="$access" --secret-key="$secret" >"$dir/log/user-create.log" 2>&1 ||
    { step_log=user-create.log; die "radosgw-admin user create failed"; }
  # The region: the gateway signs with whatever region the SigV4 scope names (us-east-1 works too), but a
  # CreateBucket LocationConstraint must be the zonegroup's api_name, "default" (us-east-1 there is refused), and
  # GetBucketLocation answers "default".
  printf 'S3_ENDPOINT=%s\nS3_REGION=default\nAWS_ACCESS_KEY_ID=%s\nAWS_SECRET_ACCESS_KEY=%s\n' \
    "$endpoint" "$access" "$secret" >"$dir/s3.env.tmp"
  chmod 600 "$dir/s3.env.tmp"
  mv "$dir/s3.env.tmp" "$dir/s3.env"
  start_ok=1
  say "running in $dir: S3 at $endpoint, monitor at 127.0.0.1:$mon_v2 (v2) and :$mon_v1 (v1); stop with $0 stop $dir"
  echo "$dir/s3.env"
}

status() {
  local entry name failed=0 pid endpoint
  for entry in "${daemons[@]}"; do
    read -r name _ <<<"$entry"
    if pid="$(running_pid "$name")"; then echo "$name running (pid $pid)"; else echo "$name not running"; failed=1; fi
  done
  if endpoint="$(s3_endpoint)" && s3_answers "$endpoint"; then echo "S3 at $endpoint answers"; else
    echo "S3 ${endpoint:-(no ceph.conf)} does not answer"
    failed=1
  fi
  return "$failed"
}

case "$command" in
  start) start ;;
  stop)
    [ -d "$dir" ] || exit 0
    dir="$(cd "$dir" && pwd -P)"
    stop_all
    ;;
  kill-gateway | start-gateway)
    [ -d "$dir" ] || die "$dir: no such folder"
    dir="$(cd "$dir" && pwd -P)"
    if [ "$command" = kill-gateway ]; then kill_gateway; else start_gateway; fi
    ;;
  status)
    [ -d "$dir" ] || { echo "$dir: no such folder"; exit 1; }
    dir="$(cd "$dir" && pwd -P)"
    status
    ;;
  *) usage ;;
esac
