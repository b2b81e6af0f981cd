import ChunkedVersionStore
import Foundation
import Logging
import PostgresStorage
import S3ChunkBodies
import S3ObjectStore
import SQLiteStorage
import WOPIClusterTestSupport

/// The two metadata databases with their content in a bucket of the test process's Ceph cluster
/// (``CephGateway``): a new bucket, and a new database, per test.
enum ObjectStoreBackends {
    static let logger: Logger = {
        var logger = Logger(label: "s3-chunk-bodies-tests")
        logger.logLevel = .warning
        return logger
    }()

    /// Runs `body` with a client of a new, created bucket.
    static func withBucket<Result: Sendable>(
        _ purpose: String, _ body: (S3ObjectStore) async throws -> Result
    ) async throws -> Result {
        let gateway = try await CephGateway.shared.value
        let configuration = try S3ObjectStore.Configuration(
            endpoint: gateway.endpoint, region: gateway.region,
            bucket: "t-\(purpose)-\(UUID().uuidString.prefix(8).lowercased())", addressing: .path,
            credentials: S3Credentials(accessKeyID: gateway.accessKeyID, secretAccessKey: gateway.secretAccessKey))
        return try await S3ObjectStore.withObjectStore(configuration: configuration, logger: logger) { store in
            try await store.createBucket()
            return try await body(store)
        }
    }

    /// What makes the body store of a storage on `store`, with `clock` for the grace period.
    static func bodies(
        _ store: S3ObjectStore, gracePeriod: TimeInterval = 3600, now: @escaping @Sendable () -> Date = { Date() }
    ) -> (ChunkBodyCatalog) -> any ChunkBodyStore {
        { catalog in
            S3ChunkBodies(store: store, catalog: catalog, gracePeriod: gracePeriod, now: now, logger: logger)
        }
    }

    /// The object names in the bucket, with their sizes.
    static func objects(_ store: S3ObjectStore) async throws -> [String: Int64] {
        var found: [String: Int64] = [:]
        for try await object in store.listAllObjects() { found[object.key] = object.size }
        return found
    }
}

/// A SQLite database file in a fresh temporary directory, removed with it.
final class SQLiteFile: Sendable {
    let directory: URL
    let path: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "s3-chunk-bodies-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("wopi.sqlite").path
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func openDatabase() throws -> SQLiteDatabase {
        try SQLiteDatabase(path: path, configuration: .init(logger: ObjectStoreBackends.logger))
    }

    /// A storage with its chunk bodies in `store`'s bucket.
    func openStorage(
        _ store: S3ObjectStore, _ configuration: SQLiteStorage.Configuration = .init(),
        gracePeriod: TimeInterval = 3600
    ) throws -> SQLiteStorage {
        try SQLiteStorage(
            database: openDatabase(), configuration: configuration,
            chunkBodies: ObjectStoreBackends.bodies(store, gracePeriod: gracePeriod, now: configuration.now))
    }
}
