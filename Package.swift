// swift-tools-version: 6.1
import PackageDescription

/// Settings shared by every target of ours: Swift 6 language mode (strict concurrency) and explicit `any`.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "WOPIKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "WOPIModels", targets: ["WOPIModels"]),
        .library(name: "WOPIStorage", targets: ["WOPIStorage"]),
        .library(name: "WOPIStorageConformance", targets: ["WOPIStorageConformance"]),
        .library(name: "WOPIServer", targets: ["WOPIServer"]),
        .library(name: "WOPIServerHummingbird", targets: ["WOPIServerHummingbird"]),
        .library(name: "WOPIOAuth", targets: ["WOPIOAuth"]),
        .library(name: "FileSystemStorage", targets: ["FileSystemStorage"]),
        .library(name: "SQLiteStorage", targets: ["SQLiteStorage"]),
        .library(name: "SQLiteServerStores", targets: ["SQLiteServerStores"]),
        .library(name: "FUSEMount", targets: ["FUSEMount"]),
        .executable(name: "wopi-host", targets: ["wopi-host"]),
        .library(name: "WOPIClient", targets: ["WOPIClient"]),
        .executable(name: "wopi", targets: ["wopi"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // MARK: Modules
        .target(
            name: "WOPIModels",
            path: "Modules/WOPIModels",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIStorage",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Modules/WOPIStorage",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIStorageConformance",
            dependencies: ["WOPIStorage", .product(name: "NIOCore", package: "swift-nio")],
            path: "Modules/WOPIStorageConformance",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIServer",
            dependencies: [
                "WOPIModels",
                "WOPIStorage",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Modules/WOPIServer",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIServerHummingbird",
            dependencies: [
                "WOPIServer",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Modules/WOPIServerHummingbird",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIOAuth",
            dependencies: [
                "WOPIModels",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Modules/WOPIOAuth",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIClient",
            dependencies: [
                "WOPIModels",
                "WOPIStorage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Modules/WOPIClient",
            swiftSettings: swiftSettings
        ),

        // MARK: Plugins
        .target(
            name: "FileSystemStorage",
            dependencies: [
                "WOPIStorage",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Plugins/FileSystemStorage",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SQLiteStorage",
            dependencies: [
                "WOPIStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Plugins/SQLiteStorage",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SQLiteServerStores",
            dependencies: [
                "SQLiteStorage", "WOPIServer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Plugins/SQLiteServerStores",
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            name: "CFuse3",
            path: "Plugins/CFuse3",
            pkgConfig: "fuse3",
            providers: [.apt(["libfuse3-dev"])]
        ),
        .target(
            name: "CFuse3Shim",
            dependencies: ["CFuse3"],
            path: "Plugins/CFuse3Shim"
        ),
        .target(
            name: "FUSEMount",
            dependencies: [
                "WOPIStorage",
                "CFuse3",
                "CFuse3Shim",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Plugins/FUSEMount",
            swiftSettings: swiftSettings
        ),

        // MARK: Examples
        .executableTarget(
            name: "wopi-host",
            dependencies: [
                "WOPIModels",
                "WOPIServer",
                "WOPIServerHummingbird",
                "FileSystemStorage",
                "SQLiteStorage",
                "SQLiteServerStores",
                "FUSEMount",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/wopi-host",
            resources: [.copy("Samples")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "wopi",
            dependencies: [
                "WOPIClient",
                "WOPIOAuth",
                "WOPIModels",
                "WOPIStorage",
                "FUSEMount",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/wopi",
            swiftSettings: swiftSettings
        ),

        // MARK: Benchmarks
        .executableTarget(
            name: "wopikit-bench",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/wopikit-bench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "wopikit-hello",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/wopikit-hello",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        .target(
            name: "WOPITestSupport",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/WOPITestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIModelsTests",
            dependencies: ["WOPIModels"],
            path: "Tests/WOPIModelsTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIStorageTests",
            dependencies: ["WOPIStorage", "WOPIStorageConformance"],
            path: "Tests/WOPIStorageTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FileSystemStorageTests",
            dependencies: [
                "WOPITestSupport", "FileSystemStorage", "WOPIStorageConformance",
            ],
            path: "Tests/FileSystemStorageTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SQLiteStorageTests",
            dependencies: [
                "SQLiteStorage", "WOPIStorageConformance",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/SQLiteStorageTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIOAuthTests",
            dependencies: ["WOPIOAuth", .product(name: "Hummingbird", package: "hummingbird")],
            path: "Tests/WOPIOAuthTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FUSEMountTests",
            dependencies: [
                "WOPITestSupport", "wopi", "wopi-host",
                "FUSEMount", "WOPIStorage", "FileSystemStorage",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/FUSEMountTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OAuthServerTests",
            dependencies: [
                "SQLiteServerStores",
                "WOPITestSupport",
                "WOPIServer", "WOPIServerHummingbird",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/OAuthServerTests",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CMallocCounter",
            path: "Tests/CMallocCounter"
        ),
        .testTarget(
            name: "AllocationTests",
            dependencies: [
                "CMallocCounter", "WOPIServer", "SQLiteStorage", "SQLiteServerStores",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/AllocationTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIServerTests",
            dependencies: [
                "WOPITestSupport",
                "WOPIServer", "WOPIServerHummingbird", "FileSystemStorage", "wopi-host",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/WOPIServerTests",
            exclude: ["Vectors"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIClientTests",
            dependencies: [
                "WOPITestSupport",
                "WOPIClient", "WOPIStorageConformance", "WOPIServer", "WOPIServerHummingbird", "wopi-host", "wopi",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tests/WOPIClientTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIHostStressTests",
            dependencies: [
                "WOPITestSupport",
                "wopi-host", "SQLiteStorage", "WOPIStorage", "WOPIModels",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/WOPIHostStressTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InteropTests",
            dependencies: ["WOPITestSupport", "wopi-host", "wopi"],
            path: "Tests/InteropTests",
            exclude: ["Scripts"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIValidatorScenarioTests",
            dependencies: [
                "WOPITestSupport",
                "wopi-host", "WOPIModels",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/WOPIValidatorScenarioTests",
            swiftSettings: swiftSettings
        ),
    ]
)
