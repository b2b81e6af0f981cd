#!/usr/bin/env bash
# POSIX conformance of `wopi mount` with pjdfstest (github.com/pjd/pjdfstest): fetches and builds pjdfstest
# outside the repository, starts a `wopi-host serve --demo` (sqlite) on 127.0.0.1, signs in, mounts it as root,
# and runs the eight groups a WOPI mount can carry inside the mounted Documents folder. Prints a Markdown table
# of passed/planned cases per group (the figures in Docs/fuse-mount.md). Needs root, /dev/fuse, fuse3, gcc,
# git, curl and prove (perl). Usage: scripts/pjdfstest.sh [GROUP...|all] (all: every group of the suite)
# With BIN=DIR, uses the wopi-host and wopi already built there; PJDFSTEST=DIR uses an existing checkout.
set -euo pipefail
groups=("$@")
[ ${#groups[@]} -eq 0 ] && groups=(open truncate ftruncate unlink rename mkdir rmdir utimensat)
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "pjdfstest runs as root (it changes owners and modes)" >&2; exit 1; }
if [ -n "${BIN:-}" ]; then
  bin="$BIN"
else
  swift build --product wopi-host >&2
  swift build --product wopi >&2
  bin=$(swift build --show-bin-path)
fi
suite=${PJDFSTEST:-${TMPDIR:-/tmp}/pjdfstest-src}
if [ ! -x "$suite/pjdfstest" ]; then
  [ -f "$suite/pjdfstest.c" ] || git clone -q https://github.com/pjd/pjdfstest "$suite"
  # Built without autotools: the configure checks reduce to these definitions on Linux with glibc.
  touch "$suite/config.h"
  defines=(_GNU_SOURCE HAVE_SYS_SYSMACROS_H HAVE_FACCESSAT HAVE_FCHMODAT HAVE_FCHOWNAT HAVE_FSTATAT HAVE_LINKAT
    HAVE_MKDIRAT HAVE_MKFIFOAT HAVE_MKNODAT HAVE_OPENAT HAVE_POSIX_FALLOCATE HAVE_READLINKAT HAVE_RENAMEAT
    HAVE_SYMLINKAT HAVE_UTIMENSAT HAVE_STRUCT_STAT_ST_ATIM HAVE_STRUCT_STAT_ST_CTIM HAVE_STRUCT_STAT_ST_MTIM)
  gcc -O2 "${defines[@]/#/-D}" -o "$suite/pjdfstest" "$suite/pjdfstest.c"
fi
if [ "${groups[*]}" = all ]; then
  groups=()
  for dir in "$suite"/tests/*/; do groups+=("$(basename "$dir")"); done
fi
source scripts/demo-host.sh
demo_host "$bin" pjdfstest
demo_mount "$bin" --allow-other

echo "| group | passed | cases | % |"
echo "|---|---|---|---|"
total_ok=0 total_all=0
for group in "${groups[@]}"; do
  log="$work/$group.log"
  # pjdfstest works in the current directory; each group gets a fresh folder on the mount.
  mkdir "$work/mnt/Documents/pjd-$group"
  (cd "$work/mnt/Documents/pjd-$group" && timeout 1800 prove -rv "$suite/tests/$group" >"$log" 2>&1) || true
  # Cases planned = each file's TAP "1..N" line; passed = its "ok" lines (a file that dies mid-plan loses the rest).
  all=$(awk -F'[.]' '/^1\.\.[0-9]+/ { n += $3 } END { print n + 0 }' "$log")
  ok=$(grep -cE '^ok [0-9]+' "$log" || true)
  total_ok=$((total_ok + ok)) total_all=$((total_all + all))
  awk -v g="$group" -v o="$ok" -v a="$all" 'BEGIN { printf "| %s | %d | %d | %.1f |\n", g, o, a, a ? 100 * o / a : 0 }'
  [ -n "${KEEP_LOGS:-}" ] && cp "$log" "$KEEP_LOGS/"
done
awk -v o="$total_ok" -v a="$total_all" 'BEGIN { printf "| all groups run | %d | %d | %.1f |\n", o, a, 100 * o / a }'
