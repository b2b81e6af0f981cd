# Sourced by the scripts that measure `wopi mount` (fuse-throughput.sh, pjdfstest.sh): a `wopi-host serve --demo`
# (sqlite) on 127.0.0.1 in a temporary folder, signed in with a scripted browser, and a mount of it. Removed,
# with the processes, when the sourcing script exits.
#   demo_host BIN NAME          starts the host in a new folder $work (/tmp/wopikit-NAME.*), signs in; sets $url
#   demo_mount BIN [OPTION...]  mounts it at $work/mnt with `wopi mount OPTION...`; fails with the mount's log

demo_cleanup() {
  fusermount3 -uz "$work/mnt" 2>/dev/null || true
  [ -n "${mount_pid:-}" ] && kill "$mount_pid" 2>/dev/null || true
  [ -n "${host_pid:-}" ] && kill "$host_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}

demo_host() {
  local bin=$1 name=$2
  work=$(mktemp -d "/tmp/wopikit-$name.XXXXXX")
  trap demo_cleanup EXIT
  "$bin/wopi-host" serve --demo --data "$work/data" --port 0 --log-level warning >"$work/serve.log" 2>&1 &
  host_pid=$!
  for _ in $(seq 300); do grep -q '^listening on' "$work/serve.log" && break; sleep 0.1; done
  url=$(grep '^listening on' "$work/serve.log" | cut -d' ' -f3)
  [ -n "$url" ] || { cat "$work/serve.log" >&2; return 1; }
  # Sign in as the demo user with a scripted browser (curl submits the sign-in form).
  export XDG_CONFIG_HOME="$work/config" BROWSER="$PWD/scripts/demo-browser.sh"
  "$bin/wopi" login "$url/wopibootstrapper" >/dev/null
}

demo_mount() {
  local bin=$1
  shift
  mkdir -p "$work/mnt"
  "$bin/wopi" mount "$@" "$work/mnt" >"$work/mount.log" 2>&1 &
  mount_pid=$!
  for _ in $(seq 300); do grep -q " $work/mnt " /proc/self/mounts && break; sleep 0.1; done
  grep -q " $work/mnt " /proc/self/mounts || { cat "$work/mount.log" >&2; return 1; }
}
