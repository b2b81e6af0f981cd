#!/usr/bin/env bash
# Builds a provider's package that depends on WOPIKit with only the HummingbirdAdapter and SQLite traits and uses
# WOPIDeployment (issue 50, item 6): the trait promise of Package.swift, kept. The package lives in a temporary
# folder; WOPIKit is this checkout, by path. Its build is its own (.build/provider-package).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A path dependency's identity is its folder's name: the link gives it WOPIKit's.
ln -s "$repo" "$work/WOPIKit"
mkdir -p "$work/provider/Sources/provider"
cat > "$work/provider/Package.swift" <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "provider",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../WOPIKit", traits: ["HummingbirdAdapter", "SQLite"])],
    targets: [
        .executableTarget(
            name: "provider", dependencies: [.product(name: "WOPIDeployment", package: "WOPIKit")],
            swiftSettings: [.swiftLanguageMode(.v6)])
    ]
)
SWIFT
cat > "$work/provider/Sources/provider/main.swift" <<'SWIFT'
import Foundation
import WOPIDeployment

// A deployment on SQLite, assembled and asked for its readiness: it builds and runs without PostgreSQL or OTLP.
let directory = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
let stores = try DeploymentStores.sqlite(directory: directory)
let deployment = try await WOPIDeployment(stores: stores, configuration: WOPIDeployment.Configuration())
print("provider package: deployment on SQLite, authorization reader \(stores.authorizationReader != nil)")
_ = deployment
SWIFT
scratch="$repo/.build/provider-package"
"$SWIFT" build --package-path "$work/provider" --scratch-path "$scratch"
data="$work/data" && mkdir -p "$data"
output=$("$scratch/debug/provider" "$data")
echo "$output"
[[ "$output" == *"authorization reader true"* ]] || { echo "check-provider-package: unexpected output" >&2; exit 1; }
