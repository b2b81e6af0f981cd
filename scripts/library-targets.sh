#!/usr/bin/env bash
# Prints the target of every library product of Package.swift, one per line, in manifest order (every product of
# this package has one target). Used by scripts/build-docs.sh and scripts/check-api.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
grep -o '\.library(name: "[^"]*", targets: \["[^"]*"\]' Package.swift | sed 's/.*targets: \["\([^"]*\)"\]/\1/'
