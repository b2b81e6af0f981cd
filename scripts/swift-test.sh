#!/usr/bin/env bash
# One `swift test` pass of `make test` (its arguments are swift test's). A CI log is often read from its tail, and a
# failure scrolls far up, past hundreds of lines of passing tests; so when the pass fails, its failing tests and
# their issues are printed again at the end, with the pass's exit code.
set -uo pipefail
log=$(mktemp "${TMPDIR:-/tmp}/swift-test.XXXXXX")
trap 'rm -f "$log"' EXIT
"${SWIFT:-swift}" test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    # Swift Testing marks each failing test and each of its issues with ✘; XCTest writes "error:"; a crash names
    # its signal or fatal error. Failing tests first, one line each; then their issues, cut to 300 characters.
    echo
    echo "==== swift test $* failed (exit $status). Its failures, again:"
    grep -E '^✘ Test .* (failed|passed) after' "$log" | grep -v '^✘ Test run with' | head -20
    grep -E '✘ .*recorded an issue|: error: |Fatal error|[Ss]ignal [0-9]+|Exited with' "$log" | cut -c1-300 | head -20
    grep -E '^. Test run with|Executed [0-9]+ tests' "$log" | tail -2
fi
exit "$status"
