#!/usr/bin/env bash
# Builds what `make run` builds, the example host on the Examples trait alone (no PostgreSQL, TLS or OTLP), in a
# build of its own (.build/run-build), and checks that an option needing a trait left out says which and how to get
# it, and that the demo host starts. `make test` builds everything else with the default traits.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
scratch=.build/run-build
$SWIFT build --scratch-path "$scratch" --product wopi-host --traits Examples
host="$($SWIFT build --scratch-path "$scratch" --traits Examples --show-bin-path)/wopi-host"
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
expect_refusal() {
    local trait=$1
    shift
    if output=$("$host" "$@" 2>&1); then
        echo "check-run-build: wopi-host $* ran; it was built without $trait" >&2
        exit 1
    fi
    grep -q "built without the $trait trait" <<<"$output" || {
        echo "check-run-build: wopi-host $* did not name the $trait trait: $output" >&2
        exit 1
    }
}
expect_refusal TLS serve --data "$data" --port 0 --tls-cert cert.pem --tls-key key.pem
expect_refusal TLS serve --data "$data" --port 0 --discovery-url http://127.0.0.1:9/hosting/discovery
expect_refusal PostgreSQL user list --data "$data" --database postgres://wopi@127.0.0.1/wopi
"$host" user add bob --data "$data" --display-name Bob --password-stdin <<<"a long password"
"$host" user list --data "$data" | grep -q bob
echo "check-run-build: make run's build (the Examples trait alone) serves the demo's needs and names what it left out"
