#!/usr/bin/env bash
# Fuzz/fuzz.sh SECONDS [TARGET...]: runs each libFuzzer target of wopikit-fuzz for SECONDS, starting from its seed
# corpus Fuzz/Corpus/TARGET (read only) plus a working corpus .build-fuzz/corpus/TARGET that keeps what earlier
# runs found. A crash stops with its input in .build-fuzz/crashes/ and exit status 1. Build first: `make fuzz-build`.
# With FUZZ_RUNS=N, each target instead runs N inputs from a fixed seed (and no working corpus): the same inputs on
# every machine, so a short pass in CI fails only on a change of code, never on luck; FUZZ_RUNS_<target> (dashes as
# underscores: FUZZ_RUNS_http_host) gives one target another count. With FUZZ_MAX_RUNS=N, each target
# stops after N inputs too (SECONDS 0: no time limit). Targets run FUZZ_JOBS at a time (default: one per CPU); each is
# one single-threaded process.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:?usage: Fuzz/fuzz.sh SECONDS [TARGET...]}"
shift
binary=.build-fuzz/debug/wopikit-fuzz
[ -x "$binary" ] || { echo "fuzz.sh: $binary is missing; run make fuzz-build" >&2; exit 2; }
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for dir in Fuzz/Corpus/*/; do targets+=("$(basename "$dir")"); done
fi
mkdir -p .build-fuzz/crashes
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Runs one target; prints its line of the report.
run_target() {
  local target=$1
  mkdir -p ".build-fuzz/corpus/$target"
  local limit=(-max_total_time="$seconds")
  local corpora=(".build-fuzz/corpus/$target" "Fuzz/Corpus/$target")
  if [ -n "${FUZZ_MAX_RUNS:-}" ]; then limit+=(-runs="$FUZZ_MAX_RUNS"); fi
  local started=$SECONDS
  if [ -n "${FUZZ_RUNS:-}" ]; then
    local own_count="FUZZ_RUNS_${target//-/_}"
    limit=(-runs="${!own_count:-$FUZZ_RUNS}" -seed=1)
    corpora=("$(mktemp -d)" "Fuzz/Corpus/$target")
  fi
  local log=".build-fuzz/$target.log"
  local options=()
  # FoundationXML leaks on every malformed document (see Fuzz/lsan-suppressions.txt), which makes libFuzzer run a
  # full leak check after nearly every input: 50 times slower. So this target runs without leak checks; memory
  # errors are still caught.
  [ "$target" = discovery ] && options+=(-detect_leaks=0)
  # http-host: nearly every input of the in-process host leaves a few allocations to threads that outlive it, so the
  # leak check would scan the heap after each one: 5 inputs a second instead of 25-30. Its leak checks are a run of
  # their own (Docs/fuzzing-and-sanitizers.md).
  [ "$target" = http-host ] && options+=(-detect_leaks=0)
  # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that needs 2 GB is a finding too.
  if FUZZ_TARGET="$target" "$binary" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${options[@]}" \
    -artifact_prefix=".build-fuzz/crashes/$target-" "${corpora[@]}" >"$log" 2>&1
  then
    local runs how
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    if [ -n "${FUZZ_RUNS:-}" ]; then
      how="from a fixed seed"
    elif [ "$seconds" = 0 ]; then
      how="in $((SECONDS - started)) s"
    else
      how="in ${seconds} s"
    fi
    echo "fuzz $target: ${runs:-?} inputs $how, no crash"
  else
    echo "fuzz $target: FAILED (log $log):"
    grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$log" | head -8
  fi
}

jobs_at_once="${FUZZ_JOBS:-$(nproc)}"
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  run_target "$target" > ".build-fuzz/$target.report" &
done
wait
failed=()
for target in "${targets[@]}"; do
  cat ".build-fuzz/$target.report"
  if grep -q "^fuzz $target: FAILED" ".build-fuzz/$target.report"; then failed+=("$target"); fi
done
[ ${#failed[@]} -eq 0 ] || { echo "fuzz: crashes in ${failed[*]}" >&2; exit 1; }
