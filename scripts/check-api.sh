#!/usr/bin/env bash
# Fails when the public API of a library product breaks against the release named in API/baseline, unless
# API/allowed-breaks.txt lists the break (an intended break is listed there and described in CHANGELOG.md).
#
# The release's API, as swift-api-digester dumped it when the release was cut, is kept compressed in
# API/<release>/; SwiftPM finds it by the release's commit and does not build the release again. Cut a new
# baseline with scripts/check-api.sh --cut RELEASE (after tagging RELEASE).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}

if [[ "${1:-}" == "--cut" ]]; then
    release=${2:?usage: scripts/check-api.sh --cut RELEASE}
    commit=$(git rev-parse "$release^{commit}")
    work=$(mktemp -d)
    git worktree add --detach "$work/tree" "$commit"
    (cd "$work/tree" && $SWIFT package diagnose-api-breaking-changes "$commit" --baseline-dir "$work/dumps")
    rm -rf "API/$release" && mkdir -p "API/$release"
    for dump in "$work/dumps/$commit"/*.json; do gzip -9n -c "$dump" > "API/$release/$(basename "$dump").gz"; done
    printf '%s %s\n' "$release" "$commit" > API/baseline
    : > API/allowed-breaks.txt
    git worktree remove --force "$work/tree" && rm -rf "$work"
    echo "API/baseline is $release ($commit); commit API/."
    exit 0
fi

read -r release commit < API/baseline
if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "check-api: commit $commit of release $release is not in this clone; fetch the full history" \
        "(git fetch --unshallow) and run again." >&2
    exit 1
fi
dumps=.build/api-baseline
rm -rf "$dumps/$commit" && mkdir -p "$dumps/$commit"
for dump in "API/$release"/*.json.gz; do gunzip -c "$dump" > "$dumps/$commit/$(basename "$dump" .gz)"; done
# A library product the release did not have gets an empty API: all of its API is an addition. Without a dump,
# SwiftPM checks the release out and builds all of it to look for the module (9 minutes here), then skips it.
dumped=("API/$release"/*.json.gz)
format=$(gunzip -c "${dumped[0]}" | grep -o '"json_format_version": *[0-9]*' | grep -o '[0-9]*$')
while read -r target; do
    [ -f "$dumps/$commit/$target.json" ] || printf '{"ABIRoot": {"kind": "Root", "name": "%s", "printedName": "%s", "json_format_version": %s}}\n' \
        "$target" "$target" "$format" > "$dumps/$commit/$target.json"
done < <(scripts/library-targets.sh)
$SWIFT package diagnose-api-breaking-changes "$commit" --baseline-dir "$dumps" \
    --breakage-allowlist-path API/allowed-breaks.txt
