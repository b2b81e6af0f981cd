#!/usr/bin/env bash
# Builds the DocC documentation of every library product of Package.swift with the toolchain's own `docc`:
#   .build/docs/<Target>.doccarchive   (open with `docc preview`, or serve the folder)
#
# Symbol graphs are extracted with `swift-symbolgraph-extract` from the modules of the debug test build, the one
# `make build` and `make test` make (`swift build --build-tests`, a no-op when it is current). `make test` passes
# --skip-build: with SwiftPM 6.3, every `swift test` plans the build again and lists the package's trait defines
# (-DSQLite ...) in a new random order, so the next `swift build` recompiles every module of the package
# (swiftlang/swift-package-manager#10525; 180 s here) although nothing changed. `swift package
# dump-symbol-graph` is not used: it builds with other flags, so it and the test build would rebuild each other's
# modules every time (2-3 minutes each here). Each target's catalog is `Modules/<Target>/<Target>.docc` or
# `Plugins/<Target>/<Target>.docc`; the guides of Docs/ that a catalog links as <doc:name> are copied into it at
# build time, so Docs/*.md stays the one source of every guide (readable on GitHub) and DocC renders the same pages.
#
# Fails when a catalog page (landing page, article, copied guide) has any warning, such as an unresolved symbol
# link. Warnings in source documentation comments are counted and listed; DOCS_STRICT=1 fails on them too
# (`docc --warnings-as-errors`).
#
# Environment: SWIFT (default swift), DOCC (default docc), SYMBOLGRAPH_EXTRACT (default swift-symbolgraph-extract),
# DOCS_OUTPUT (default .build/docs), DOCS_STRICT (0), DOCS_VERBOSE (0; 1 lists source-comment warnings).
set -euo pipefail
cd "$(dirname "$0")/.."
swift_cmd="${SWIFT:-swift}"
docc_cmd="${DOCC:-docc}"
extract_cmd="${SYMBOLGRAPH_EXTRACT:-swift-symbolgraph-extract}"
output="${DOCS_OUTPUT:-.build/docs}"
strict="${DOCS_STRICT:-0}"

for tool in "$docc_cmd" "$extract_cmd"; do
  command -v "$tool" >/dev/null || { echo "error: '$tool' not found; it ships with the Swift toolchain" >&2; exit 2; }
done

if [ "${1:-}" = --skip-build ]; then
  [ -d .build/debug ] || {
    echo "error: --skip-build, but there is no debug build; run swift build --build-tests" >&2; exit 1; }
else
  echo "== build (swift build --build-tests)"
  build_log=$("$swift_cmd" build --build-tests 2>&1) || { echo "$build_log" | tail -40 >&2; exit 1; }
  echo "$build_log" | grep "Build complete" || true
fi
# The debug products of the build above.
bin=$(cd .build/debug && pwd -P)
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"
triple=$(basename "$(dirname "$bin")")
# The C modules the Swift modules import: the module maps SwiftPM generated, and those of C targets and system
# libraries (checkouts and this package).
# A module cache of its own: the extractor must not touch the clang module cache the build uses, or the next
# build recompiles everything.
extract_args=(-I "$modules" -target "$triple" -minimum-access-level public -emit-extension-block-symbols
  -module-cache-path "$PWD/.build/docs-module-cache")
while IFS= read -r map; do extract_args+=(-Xcc "-fmodule-map-file=$map"); done \
  < <(find "$bin" -maxdepth 2 -name module.modulemap)
while IFS= read -r dir; do extract_args+=(-I "$PWD/$dir"); done \
  < <(find .build/checkouts Modules Plugins -name module.modulemap -not -path '*/Tests/*' -exec dirname {} \; | sort -u)

# The targets of the library products, in manifest order (every product of this package has one target).
mapfile -t targets < <(scripts/library-targets.sh)
[ ${#targets[@]} -gt 0 ] || { echo "error: no library products found in Package.swift" >&2; exit 1; }

rm -rf "$output" && mkdir -p "$output/.work"
catalog_failures=0
source_warnings=0
for target in "${targets[@]}"; do
  work="$output/.work/$target"
  mkdir -p "$work/graphs"
  "$extract_cmd" -module-name "$target" -output-dir "$work/graphs" "${extract_args[@]}" > "$work/extract.log" 2>&1 || {
    sed 's/^/  /' "$work/extract.log" >&2; echo "error: no symbol graph for $target" >&2; exit 1; }

  arguments=()
  catalog=$(ls -d "Modules/$target/$target.docc" "Plugins/$target/$target.docc" 2>/dev/null | head -1 || true)
  if [ -n "$catalog" ]; then
    cp -R "$catalog" "$work/$target.docc"
    guides=$( (grep -ho '<doc:[A-Za-z0-9_-]*>' "$catalog"/*.md || true) | sed 's/<doc:\(.*\)>/\1/' | sort -u)
    for guide in $guides; do
      if [ -f "Docs/$guide.md" ] && [ ! -e "$catalog/$guide.md" ]; then
        # Links between guides copied into the same catalog become DocC links; others stay as they are.
        sed_links=()
        for other in $guides; do sed_links+=(-e "s/](${other}\.md)/](doc:${other})/g"); done
        sed "${sed_links[@]}" "Docs/$guide.md" > "$work/$target.docc/$guide.md"
      fi
    done
    arguments+=("$work/$target.docc")
  else
    echo "note: $target has no catalog (Modules/$target/$target.docc); its reference has no landing page"
  fi
  [ "$strict" = 1 ] && arguments+=(--warnings-as-errors)

  echo "== $target"
  status=0
  "$docc_cmd" convert "${arguments[@]}" \
    --additional-symbol-graph-dir "$work/graphs" \
    --fallback-display-name "$target" --fallback-bundle-identifier "org.wopikit.$target" \
    --output-path "$output/$target.doccarchive" > "$work/docc.log" 2>&1 || status=$?

  # A warning is followed by ` --> PATH:LINE…`: a .md path is a catalog page, anything else a source comment.
  counts=$(awk '/^warning: /{w=$0; next} w && /-->/{ if ($0 ~ /\.md:[0-9]/) c++; else s++; if ($0 ~ /\.md:[0-9]/ || v) print w " (" $2 ")" > "/dev/stderr"; w=""} END{print c+0, s+0}' \
    v="${DOCS_VERBOSE:-0}" "$work/docc.log" 2> "$work/warnings.txt")
  read -r in_catalog in_source <<< "$counts"
  sed 's/^/  /' "$work/warnings.txt"
  echo "  $in_catalog catalog warnings, $in_source source-comment warnings"
  if [ "$status" -ne 0 ] || [ "$in_catalog" -gt 0 ]; then
    [ "$status" -ne 0 ] && tail -20 "$work/docc.log" | sed 's/^/  /'
    catalog_failures=$((catalog_failures + 1))
  fi
  source_warnings=$((source_warnings + in_source))
done

echo "== ${#targets[@]} archives in $output; $source_warnings warnings in source documentation comments" \
  "(DOCS_VERBOSE=1 lists them, DOCS_STRICT=1 fails on them)"
if [ "$catalog_failures" -gt 0 ]; then
  echo "error: $catalog_failures targets have catalog warnings or failed; fix the pages listed above" >&2
  exit 1
fi
