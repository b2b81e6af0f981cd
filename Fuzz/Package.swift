// swift-tools-version: 6.1
import PackageDescription

// WOPIKit's libFuzzer targets: one executable, `wopikit-fuzz`, whose `FUZZ_TARGET` environment variable picks the
// parser under test (see `Docs/fuzzing-and-sanitizers.md`). A package of its own so that the main package's
// `swift build` never builds it: it links only with `-sanitize=fuzzer`, whose runtime has the libFuzzer driver.
//
//     swift build --package-path Fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
//
// The parsers under test are partly `internal` or `package`; the targets reach them with `@testable import`,
// which a debug build allows (SwiftPM compiles every module with `-enable-testing` in debug), so no access level
// of the SDK changes for the fuzzers.

/// SwiftPM names a path dependency after its folder, so the main package's identity is the clone's folder name.
let wopiKit = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "wopikit"

let package = Package(
    name: "WOPIKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `traits: []`: the parsers live in the core; Hummingbird, GRDB and ArgumentParser are not needed.
        .package(path: "..", traits: []),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    ],
    targets: [
        .target(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
        .executableTarget(
            name: "wopikit-fuzz",
            dependencies: [
                "CLibFuzzer",
                .product(name: "WOPIModels", package: wopiKit),
                .product(name: "WOPIServer", package: wopiKit),
                .product(name: "WOPIHTTPEdge", package: wopiKit),
                .product(name: "WOPIOAuth", package: wopiKit),
                .product(name: "WOPIChunking", package: wopiKit),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/wopikit-fuzz",
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
