// swift-tools-version: 6.1
import PackageDescription

/// Settings shared by every target of ours: Swift 6 language mode (strict concurrency), explicit `any`, and strict
/// imports: an import is internal unless marked `public` or `package` (a target re-exports only what its public
/// signatures name), and a member is visible only in files that import its module.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The optional integrations, each behind a package trait (all on by default). A consumer that needs only the core
/// (`WOPIModels`, `WOPIStorage`, `WOPIServer`, `WOPIClient`, `WOPIOAuth`, ...) depends on WOPIKit with `traits: []`
/// and then resolves neither Hummingbird, nor GRDB, nor ArgumentParser.
let traits: Set<Trait> = [
    .trait(
        name: "HummingbirdAdapter",
        description: "The Hummingbird 2 adapter (WOPIServerHummingbird): mounts the host on a Hummingbird router."),
    .trait(name: "SQLite", description: "The SQLite plugins (SQLiteStorage, SQLiteServerStores), on GRDB."),
    .trait(
        name: "PostgreSQL",
        description: "The PostgreSQL plugins (PostgresStorage, PostgresServerStores), on postgres-nio: several hosts."),
    .trait(
        name: "TLS",
        description:
            "HTTPS served (HummingbirdTLS) and a WOPI client's discovery fetched by URL (AsyncHTTPClient) in "
            + "WOPIDeployment and wopi-host: SwiftNIO SSL, whose BoringSSL is the longest part of a first build."),
    .trait(
        name: "OTLP",
        description: "Trace export over OTLP/HTTP (WOPITelemetry), on swift-otel, configured by the OTEL_* variables."),
    .trait(
        name: "Examples",
        description:
            "The example programs (wopi-host, wopi, the benchmarks), on ArgumentParser; wopi-host serves PostgreSQL "
            + "and HTTPS, and exports traces, only with those traits too (the defaults).",
        enabledTraits: ["HummingbirdAdapter", "SQLite"]),
    .default(enabledTraits: ["HummingbirdAdapter", "SQLite", "PostgreSQL", "TLS", "OTLP", "Examples"]),
]

extension Target.Dependency {
    /// A Hummingbird product, resolved only with the `HummingbirdAdapter` trait.
    static func hummingbird(_ name: String = "Hummingbird") -> Target.Dependency {
        .product(name: name, package: "hummingbird", condition: .when(traits: ["HummingbirdAdapter"]))
    }
    /// GRDB, resolved only with the `SQLite` trait.
    static let grdb = Target.Dependency.product(
        name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"]))
    /// PostgresNIO, resolved only with the `PostgreSQL` trait.
    static let postgresNIO = Target.Dependency.product(
        name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"]))
    /// The SQLite plugins of ours, built only with the `SQLite` trait.
    static let sqlitePlugins: [Target.Dependency] = ["SQLiteStorage", "SQLiteServerStores"].map {
        .target(name: $0, condition: .when(traits: ["SQLite"]))
    }
    /// The PostgreSQL plugins of ours, built only with the `PostgreSQL` trait.
    static let postgresPlugins: [Target.Dependency] = ["PostgresStorage", "PostgresServerStores"].map {
        .target(name: $0, condition: .when(traits: ["PostgreSQL"]))
    }
    /// The products of the `TLS` trait: HummingbirdTLS and AsyncHTTPClient (for WOPIDeployment and wopi-host).
    static let tlsProducts: [Target.Dependency] = [
        .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["TLS"])),
        .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["TLS"])),
    ]
    /// ArgumentParser, resolved only with the `Examples` trait.
    static let argumentParser = Target.Dependency.product(
        name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Examples"]))
    // The products many targets use, each named once.
    static let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
    static let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
    static let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
    static let nioHTTPTypes = Target.Dependency.product(name: "NIOHTTPTypes", package: "swift-nio-extras")
    static let nioConcurrencyHelpers = Target.Dependency.product(name: "NIOConcurrencyHelpers", package: "swift-nio")
    static let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
    static let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
    static let cryptoExtras = Target.Dependency.product(name: "_CryptoExtras", package: "swift-crypto")
    static let asyncHTTPClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")
    static let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
    static let serviceLifecycle = Target.Dependency.product(
        name: "ServiceLifecycle", package: "swift-service-lifecycle")
    static let unixSignals = Target.Dependency.product(name: "UnixSignals", package: "swift-service-lifecycle")
    static let metrics = Target.Dependency.product(name: "Metrics", package: "swift-metrics")
    static let prometheus = Target.Dependency.product(name: "Prometheus", package: "swift-prometheus")
    static let tracing = Target.Dependency.product(name: "Tracing", package: "swift-distributed-tracing")
    /// swift-otel, resolved only with the `OTLP` trait.
    static let otel = Target.Dependency.product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTLP"]))
}

let package = Package(
    name: "WOPIKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "WOPIModels", targets: ["WOPIModels"]),
        .library(name: "WOPIFoundation", targets: ["WOPIFoundation"]),
        .library(name: "WOPIAccounts", targets: ["WOPIAccounts"]),
        .library(name: "WOPIStorage", targets: ["WOPIStorage"]),
        .library(name: "WOPIChunking", targets: ["WOPIChunking"]),
        .library(name: "WOPIStorageConformance", targets: ["WOPIStorageConformance"]),
        .library(name: "WOPIServerConformance", targets: ["WOPIServerConformance"]),
        .library(name: "WOPIOAuthConformance", targets: ["WOPIOAuthConformance"]),
        .library(name: "WOPIHTTPEdge", targets: ["WOPIHTTPEdge"]),
        .library(name: "WOPIServer", targets: ["WOPIServer"]),
        .library(name: "WOPIServerHummingbird", targets: ["WOPIServerHummingbird"]),
        .library(name: "WOPIDeployment", targets: ["WOPIDeployment"]),
        .library(name: "WOPITelemetry", targets: ["WOPITelemetry"]),
        .library(name: "WOPITesting", targets: ["WOPITesting"]),
        .library(name: "WOPIOAuthCore", targets: ["WOPIOAuthCore"]),
        .library(name: "WOPIAuthorizationServer", targets: ["WOPIAuthorizationServer"]),
        .library(name: "WOPIOAuth", targets: ["WOPIOAuth"]),
        .library(name: "FileSystemStorage", targets: ["FileSystemStorage"]),
        .library(name: "SQLiteStorage", targets: ["SQLiteStorage"]),
        .library(name: "SQLiteServerStores", targets: ["SQLiteServerStores"]),
        .library(name: "PostgresStorage", targets: ["PostgresStorage"]),
        .library(name: "PostgresServerStores", targets: ["PostgresServerStores"]),
        .library(name: "S3ObjectStore", targets: ["S3ObjectStore"]),
        .library(name: "FUSEMount", targets: ["FUSEMount"]),
        .executable(name: "wopi-host", targets: ["wopi-host"]),
        .library(name: "WOPIClient", targets: ["WOPIClient"]),
        .library(name: "WOPIClientOAuth", targets: ["WOPIClientOAuth"]),
        .executable(name: "wopi", targets: ["wopi"]),
    ],
    traits: traits,
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // MARK: Modules
        .target(
            name: "WOPIModels",
            path: "Modules/WOPIModels",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIChunking",
            dependencies: [.nioCore],
            path: "Modules/WOPIChunking",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CWOPIWriteback",
            path: "Modules/CWOPIWriteback"
        ),
        .target(
            name: "WOPIFoundation",
            dependencies: ["CWOPIWriteback", .nioCore, .nioPosix, .metrics],
            path: "Modules/WOPIFoundation",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIStorage",
            dependencies: [
                "WOPIFoundation",
                "WOPIChunking",
                .nioCore,
                .nioPosix,
                .crypto,
                .logging,
                .serviceLifecycle,
                .metrics,
            ],
            path: "Modules/WOPIStorage",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIStorageConformance",
            dependencies: ["WOPIStorage", "WOPIChunking", .nioCore],
            path: "Modules/WOPIStorageConformance",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIServerConformance",
            dependencies: [
                "WOPIServer", "WOPIAuthorizationServer", "WOPIStorageConformance", "WOPIModels", "WOPIStorage",
                .logging,
                .nioCore,
            ],
            path: "Modules/WOPIServerConformance",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIOAuthConformance",
            dependencies: ["WOPIOAuth", "WOPIStorageConformance"],
            path: "Modules/WOPIOAuthConformance",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIHTTPEdge",
            dependencies: [
                "WOPIModels", "WOPIFoundation",
                .httpTypes,
                .nioCore,
                .logging,
                .tracing,
            ],
            path: "Modules/WOPIHTTPEdge",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIServer",
            dependencies: [
                "WOPIModels",
                "WOPIFoundation",
                "WOPIAccounts",
                "WOPIStorage",
                "WOPIChunking",
                "WOPIHTTPEdge",
                .nioPosix,
                .httpTypes,
                .nioCore,
                .crypto,
                .cryptoExtras,
                .logging,
                .metrics,
                .tracing,
            ],
            path: "Modules/WOPIServer",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIAccounts",
            dependencies: [
                "WOPIFoundation", "WOPIModels", "WOPIHTTPEdge",
                .crypto, .cryptoExtras, .logging, .nioCore, .nioPosix,
            ],
            path: "Modules/WOPIAccounts",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIOAuthCore",
            dependencies: ["WOPIModels", .crypto],
            path: "Modules/WOPIOAuthCore",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIAuthorizationServer",
            dependencies: [
                "WOPIFoundation",
                "WOPIAccounts",
                .nioPosix,
                "WOPIModels",
                "WOPIOAuthCore",
                "WOPIHTTPEdge",
                .httpTypes,
                .nioCore,
                .crypto,
                .logging,
                .metrics,
            ],
            path: "Modules/WOPIAuthorizationServer",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIServerHummingbird",
            dependencies: [
                "WOPIStorage", .httpTypes,
                .nioCore,
                "WOPIServer", "WOPIHTTPEdge",
                .hummingbird(),
            ],
            path: "Modules/WOPIServerHummingbird",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIDeployment",
            dependencies: [
                "WOPIModels", "WOPIStorage", "WOPIHTTPEdge", "WOPIServer", "WOPIAuthorizationServer",
                "WOPIServerHummingbird", "FileSystemStorage", "ChunkedVersionStore", "S3ObjectStore", "S3ChunkBodies",
                .hummingbird(), .hummingbird("HummingbirdCore"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .crypto,
                .httpTypes,
                .logging,
                .nioCore,
                .nioHTTP1,
                .nioHTTPTypes,
                .nioPosix,
                .serviceLifecycle,
                .unixSignals,
                .metrics,
                .prometheus,
            ] + Target.Dependency.sqlitePlugins + Target.Dependency.postgresPlugins
                + Target.Dependency.tlsProducts,
            path: "Modules/WOPIDeployment",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPITelemetry",
            dependencies: [.otel, .serviceLifecycle, .logging, .tracing],
            path: "Modules/WOPITelemetry",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPITesting",
            dependencies: [
                "WOPIHTTPEdge", "WOPIServer", "WOPIServerHummingbird", "WOPIClient", "WOPIStorage",
                .hummingbird(), .hummingbird("HummingbirdTesting"),
                .httpTypes,
                .nioCore,
            ],
            path: "Modules/WOPITesting",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIOAuth",
            dependencies: [
                "WOPIModels",
                "WOPIFoundation",
                "WOPIOAuthCore",
                .asyncHTTPClient,
                .crypto,
                .nioCore,
                .nioPosix,
                .nioHTTP1,
                .logging,
            ],
            path: "Modules/WOPIOAuth",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIClient",
            dependencies: [
                "WOPIModels",
                "WOPIChunking",
                "WOPIStorage",
                "WOPIHTTPEdge",
                .asyncHTTPClient,
                .nioCore,
                .nioHTTP1,
                .httpTypes,
                .logging,
                .tracing,
            ],
            path: "Modules/WOPIClient",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "WOPIClientOAuth",
            dependencies: ["WOPIClient", "WOPIOAuth"],
            path: "Modules/WOPIClientOAuth",
            swiftSettings: swiftSettings
        ),

        // MARK: Plugins
        .target(
            name: "FileSystemStorage",
            dependencies: [
                "WOPIStorage",
                .nioCore,
                .nioPosix,
                .crypto,
            ],
            path: "Plugins/FileSystemStorage",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ChunkedVersionStore",
            dependencies: [
                "WOPIStorage",
                "WOPIChunking",
                .nioCore,
                .nioPosix,
                .logging,
            ],
            path: "Plugins/ChunkedVersionStore",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SQLiteStorage",
            dependencies: [
                "WOPIStorage",
                "ChunkedVersionStore",
                .grdb,
                .nioCore,
                .nioPosix,
                .crypto,
                .logging,
                .serviceLifecycle,
            ],
            path: "Plugins/SQLiteStorage",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "JSONRecordCodec",
            dependencies: ["WOPIHTTPEdge"],
            path: "Plugins/JSONRecordCodec",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ServerStoreTables",
            path: "Plugins/ServerStoreTables",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SQLiteServerStores",
            dependencies: [
                "SQLiteStorage", "WOPIServer", "WOPIAuthorizationServer", "WOPIModels", "WOPIStorage",
                "JSONRecordCodec", "ServerStoreTables",
                .grdb,
                .logging,
                .nioCore,
            ],
            path: "Plugins/SQLiteServerStores",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PostgresStorage",
            dependencies: [
                "WOPIStorage",
                "ChunkedVersionStore",
                .postgresNIO,
                .nioCore,
                .nioPosix,
                .crypto,
                .logging,
                .serviceLifecycle,
                .metrics,
            ],
            path: "Plugins/PostgresStorage",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "S3ObjectStore",
            dependencies: [
                "WOPIModels", .asyncHTTPClient, .crypto, .logging, .metrics, .nioCore, .nioHTTP1, .nioPosix, .tracing,
            ],
            path: "Plugins/S3ObjectStore",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "S3ChunkBodies",
            dependencies: ["ChunkedVersionStore", "S3ObjectStore", "WOPIStorage", .logging, .nioCore],
            path: "Plugins/S3ChunkBodies",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PostgresServerStores",
            dependencies: [
                "PostgresStorage", "WOPIServer", "WOPIAuthorizationServer", "WOPIStorage", "WOPIModels",
                "JSONRecordCodec", "ServerStoreTables",
                .postgresNIO,
                .crypto,
                .logging,
                .nioCore,
            ],
            path: "Plugins/PostgresServerStores",
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
                .target(name: "CFuse3", condition: .when(platforms: [.linux])),
                .target(name: "CFuse3Shim", condition: .when(platforms: [.linux])),
                .nioCore,
                .nioConcurrencyHelpers,
                .logging,
                .unixSignals,
            ],
            path: "Plugins/FUSEMount",
            swiftSettings: swiftSettings
        ),

        // MARK: Examples
        // A provider copies the examples into their own package, where WOPIKit's `package` symbols are out of reach:
        // `packageAccess: false` holds the examples here to the same public API.
        .executableTarget(
            name: "wopi-host",
            dependencies: [
                "WOPIStorage", .nioCore,
                "WOPIModels",
                "WOPIServer",
                "WOPIHTTPEdge",
                "WOPIAuthorizationServer",
                "WOPIServerHummingbird",
                "WOPIDeployment",
                "FileSystemStorage",
                "S3ObjectStore",
                .target(name: "FUSEMount", condition: .when(platforms: [.linux])),
                .hummingbird(),
                .argumentParser,
                .serviceLifecycle,
                .unixSignals,
                .logging,
                .nioHTTP1,
                .httpTypes,
                .crypto,
                .metrics,
                "WOPITelemetry",
            ] + Target.Dependency.sqlitePlugins + Target.Dependency.postgresPlugins
                + Target.Dependency.tlsProducts,
            path: "Examples/wopi-host",
            resources: [.copy("Samples")],
            packageAccess: false,
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "wopi",
            dependencies: [
                .nioCore,
                .asyncHTTPClient,
                "WOPIClient",
                "WOPIClientOAuth",
                "WOPIOAuth",
                "WOPIModels",
                "WOPIStorage",
                .target(name: "FUSEMount", condition: .when(platforms: [.linux])),
                .argumentParser,
                .logging,
                "WOPITelemetry",
                .tracing,
            ],
            path: "Examples/wopi",
            packageAccess: false,
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "wopikit-minimal-host",
            dependencies: ["WOPIDeployment"],
            path: "Examples/minimal-host",
            packageAccess: false,
            swiftSettings: swiftSettings
        ),

        // MARK: Benchmarks
        .executableTarget(
            name: "wopikit-bench",
            dependencies: [
                "WOPIChunking", "WOPIModels",
                .asyncHTTPClient,
                .nioCore,
                .nioHTTP1,
                .argumentParser,
            ],
            path: "Benchmarks/wopikit-bench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "wopikit-hello",
            dependencies: [
                .hummingbird(),
                .nioCore,
                .argumentParser,
            ],
            path: "Benchmarks/wopikit-hello",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        .target(
            name: "WOPITestSupport",
            dependencies: [
                "WOPIOAuth", "WOPIServer", "WOPIModels", "WOPIHTTPEdge", "WOPIStorage", "WOPITesting", "WOPIChunking",
                .httpTypes,
                .crypto,
                .cryptoExtras,
                .hummingbird(),
                .hummingbird("HummingbirdCore"),
                .serviceLifecycle,
                .logging,
                .asyncHTTPClient,
                .nioConcurrencyHelpers,
                .nioCore,
                .nioHTTP1,
                .nioPosix,
            ],
            path: "Tests/WOPITestSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WOPIClusterTestSupport",
            dependencies: [
                .nioHTTP1,
                "WOPITestSupport", "PostgresStorage", .postgresNIO,
                .logging,
                .nioConcurrencyHelpers,
                .nioCore,
            ],
            path: "Tests/WOPIClusterTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "S3ObjectStoreTests",
            dependencies: [
                "S3ObjectStore", "WOPIClusterTestSupport",
                .asyncHTTPClient, .crypto, .logging, .metrics, .nioCore, .nioHTTP1, .nioPosix, .tracing,
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/S3ObjectStoreTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "S3ChunkBodiesTests",
            dependencies: [
                "S3ChunkBodies", "S3ObjectStore", "ChunkedVersionStore", "SQLiteStorage", "PostgresStorage",
                "WOPIStorage", "WOPIStorageConformance", "WOPIClusterTestSupport", "WOPITestSupport", "WOPIDeployment",
                "wopi-host", .grdb, .logging, .nioCore, .nioHTTP1, .asyncHTTPClient, .postgresNIO,
            ],
            path: "Tests/S3ChunkBodiesTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIChunkingTests",
            dependencies: ["WOPIChunking", .nioCore],
            path: "Tests/WOPIChunkingTests",
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
            dependencies: [
                .nioCore, "WOPIStorage", "WOPIStorageConformance",
            ],
            path: "Tests/WOPIStorageTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FileSystemStorageTests",
            dependencies: [
                "WOPIStorage", .nioCore,
                "WOPITestSupport", "FileSystemStorage", "WOPIStorageConformance",
            ],
            path: "Tests/FileSystemStorageTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SQLiteStorageTests",
            dependencies: [
                "ChunkedVersionStore",
                "WOPIStorage", .logging,
                "WOPITestSupport", "SQLiteStorage", "WOPIStorageConformance",
                .grdb,
                .nioCore,
            ],
            path: "Tests/SQLiteStorageTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostgresTests",
            dependencies: [
                "ChunkedVersionStore", "WOPIChunking",
                "WOPITestSupport", "WOPIClusterTestSupport", "PostgresStorage", "PostgresServerStores", "WOPIStorage",
                "WOPIStorageConformance",
                "WOPIServerConformance", "WOPIServer", "WOPIAuthorizationServer", "WOPIModels", "wopi-host", "wopi",
                "WOPIDeployment", "WOPIHTTPEdge",
                .postgresNIO,
                .httpTypes,
                .logging,
                .metrics,
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .nioCore,
                .nioHTTP1,
                .asyncHTTPClient,
            ],
            path: "Tests/PostgresTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIOAuthTests",
            dependencies: [
                .logging,
                "WOPITestSupport", "WOPIOAuth", "WOPIOAuthCore", "WOPIModels", .hummingbird(),
                "WOPIOAuthConformance", "WOPIStorageConformance",
            ],
            path: "Tests/WOPIOAuthTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FUSEMountTests",
            dependencies: [
                "WOPITestSupport", "wopi", "wopi-host",
                "FUSEMount", "WOPIStorage", "FileSystemStorage", "WOPIServer",
                .nioCore,
                .logging,
                .crypto,
            ],
            path: "Tests/FUSEMountTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OAuthServerTests",
            dependencies: [
                "SQLiteStorage", "WOPIStorage", .logging,
                "SQLiteServerStores",
                "WOPITestSupport",
                "WOPIServer", "WOPIAuthorizationServer", "WOPIServerHummingbird", "WOPIModels", "WOPITesting",
                "WOPIServerConformance", "WOPIStorageConformance", "WOPIHTTPEdge", "WOPIDeployment", .httpTypes, .grdb,
                .asyncHTTPClient,
                .hummingbird(),
                .serviceLifecycle,
                .nioCore,
                .nioHTTP1,
                .crypto,
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
                "CMallocCounter", "WOPIServer", "WOPIHTTPEdge", "WOPIModels", "WOPIStorage", "SQLiteStorage",
                "SQLiteServerStores",
                .httpTypes,
                .nioCore,
                .crypto,
            ],
            path: "Tests/AllocationTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ExampleHostTests",
            dependencies: [
                .nioHTTP1,
                "WOPITestSupport", "WOPIClusterTestSupport", "wopi-host", "wopikit-minimal-host", "WOPITelemetry",
                "WOPIModels", "WOPIChunking",
                .hummingbird(),
                .httpTypes,
                .logging,
                .nioCore,
            ],
            path: "Tests/ExampleHostTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIServerTests",
            dependencies: [
                "WOPIModels", "WOPIStorage", "WOPIChunking", .httpTypes,
                .logging,
                .cryptoExtras,
                "WOPITestSupport",
                "WOPIServer", "WOPIHTTPEdge", "WOPIServerHummingbird", "FileSystemStorage", "WOPIDeployment",
                "WOPITesting", "WOPIServerConformance", "WOPIStorageConformance",
                .asyncHTTPClient,
                .hummingbird(),
                .serviceLifecycle,
                .nioCore,
                .nioPosix,
                .nioHTTP1,
                .nioHTTPTypes,
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .crypto,
                .metrics,
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .tracing,
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/WOPIServerTests",
            exclude: ["Vectors"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIClientTests",
            dependencies: [
                .nioHTTP1,
                "WOPIModels", "WOPIStorage", .logging,
                .nioCore,
                "WOPITestSupport",
                "WOPIClient", "WOPIStorageConformance", "WOPIServer", "WOPIAuthorizationServer",
                "WOPIServerHummingbird", "WOPIDeployment", "WOPITesting", "WOPIHTTPEdge", "WOPIChunking",
                "wopi-host", "wopi",
                .crypto,
                .hummingbird(),
                .serviceLifecycle,
                .asyncHTTPClient,
                .httpTypes,
                .tracing,
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/WOPIClientTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WOPIHostStressTests",
            dependencies: [
                "WOPITestSupport",
                "wopi-host", "SQLiteStorage", "ChunkedVersionStore", "WOPIStorage", "WOPIModels",
                "WOPIStorageConformance",
                .asyncHTTPClient,
                .grdb,
                .nioCore,
                .nioHTTP1,
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
                "WOPITestSupport", "WOPIClusterTestSupport",
                "wopi-host", "WOPIModels", "WOPIServer", "WOPIServerHummingbird", "WOPIStorage", "SQLiteStorage",
                "WOPIChunking", "PostgresStorage", "PostgresServerStores", "S3ObjectStore",
                .hummingbird(),
                .asyncHTTPClient,
                .nioCore,
                .nioHTTP1,
                .crypto,
                .cryptoExtras,
                .logging,
            ],
            path: "Tests/WOPIValidatorScenarioTests",
            swiftSettings: swiftSettings
        ),
    ]
)
