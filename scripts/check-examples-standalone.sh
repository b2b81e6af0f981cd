#!/usr/bin/env bash
# Builds copies of Examples/wopi-host, Examples/wopi and Examples/minimal-host in a fresh package outside the repository that depends on
# WOPIKit by path, as a provider who copies an example into their own package would: `package` symbols are visible
# only inside WOPIKit, so an example that uses one fails here.
#
#   scripts/check-examples-standalone.sh [WORKDIR]
#
# WORKDIR (default: a new temporary folder, removed afterwards) holds the copy and its build, a full debug build of
# WOPIKit and its dependencies of its own.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd -P)"
swift_cmd="${SWIFT:-swift}"
work="${1:-}"
if [ -z "$work" ]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/wopikit-examples-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
package="$work/MyHost"
rm -rf "$package"
mkdir -p "$package/Sources"
# Target names are unique across a package graph: the copies take the names a provider would give them.
cp -R "$repo/Examples/wopi-host" "$package/Sources/my-wopi-host"
cp -R "$repo/Examples/wopi" "$package/Sources/my-wopi"
cp -R "$repo/Examples/minimal-host" "$package/Sources/my-minimal-host"
cat > "$package/Package.swift" <<SWIFT
// swift-tools-version: 6.1
// A provider's own package with copies of WOPIKit's examples (made by scripts/check-examples-standalone.sh).
import PackageDescription

func wopiKit(_ name: String) -> Target.Dependency { .product(name: name, package: "WOPIKit") }

let package = Package(
    name: "MyHost",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "WOPIKit", path: "$repo"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        .executableTarget(
            name: "my-wopi-host",
            dependencies: [
                wopiKit("WOPIStorage"), wopiKit("WOPIModels"), wopiKit("WOPIServer"), wopiKit("WOPIHTTPEdge"),
                wopiKit("WOPIAuthorizationServer"), wopiKit("WOPIServerHummingbird"), wopiKit("WOPIDeployment"),
                wopiKit("FileSystemStorage"),
                wopiKit("SQLiteStorage"), wopiKit("SQLiteServerStores"), wopiKit("PostgresStorage"),
                wopiKit("PostgresServerStores"), wopiKit("FUSEMount"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                wopiKit("WOPITelemetry"),
            ],
            resources: [.copy("Samples")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "my-minimal-host", dependencies: [wopiKit("WOPIDeployment")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "my-wopi",
            dependencies: [
                wopiKit("WOPIClient"), wopiKit("WOPIClientOAuth"), wopiKit("WOPIOAuth"), wopiKit("WOPIModels"),
                wopiKit("WOPIStorage"), wopiKit("FUSEMount"), wopiKit("WOPITelemetry"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
SWIFT
echo "== building copies of the examples in $package"
start=$(date +%s)
if ! log=$("$swift_cmd" build --package-path "$package" 2>&1); then
  echo "$log" | grep -E "error:" | sort -u | head -40 >&2
  echo "error: the copied examples do not build outside WOPIKit: they must use public API only" >&2
  exit 1
fi
echo "the copied examples build outside the repository ($(($(date +%s) - start)) s)"
