import ChunkedVersionStore
import PostgresStorage
import S3ObjectStore
import SQLiteStorage
import Testing
import WOPIClusterTestSupport
import WOPIStorage
import WOPIStorageConformance

/// The storage and version kits on SQLite and on PostgreSQL, each with its content in a Ceph bucket.
@Suite("Object storage conformance")
struct ObjectStoreConformanceTests {
    @Test(arguments: StorageConformance.cases + StorageConformance.chunkedContentCases)
    func sqliteStorage(_ conformance: StorageConformanceCase) async throws {
        try await ObjectStoreBackends.withBucket("sqlite") { store in
            let file = try SQLiteFile()
            try await conformance.run { try file.openStorage(store, .init(versionRetention: .currentOnly)) }
        }
    }

    @Test(arguments: VersionConformance.cases)
    func sqliteVersions(_ conformance: VersionConformanceCase) async throws {
        try await ObjectStoreBackends.withBucket("sqlite-versions") { store in
            let file = try SQLiteFile()
            let open: VersionConformanceCase.Factory = { retention, now in
                try file.openStorage(store, .init(versionRetention: retention, now: now))
            }
            try await conformance.run(open, peer: open)
        }
    }

    @Test(arguments: StorageConformance.cases + StorageConformance.chunkedContentCases)
    func postgresStorage(_ conformance: StorageConformanceCase) async throws {
        try await ObjectStoreBackends.withBucket("pg") { store in
            let server = try await PostgresServer.shared.value
            let database = try await PostgresPool.open(try await server.makeDatabase(), logger: PostgresServer.logger)
            try await conformance.run {
                try await PostgresStorage.open(
                    database: database, configuration: .init(versionRetention: .currentOnly),
                    chunkBodies: ObjectStoreBackends.bodies(store))
            }
            await database.shutdown()
        }
    }

    /// The peer is another host: its own connections to the same database, and its own client of the bucket.
    @Test(arguments: VersionConformance.cases)
    func postgresVersions(_ conformance: VersionConformanceCase) async throws {
        try await ObjectStoreBackends.withBucket("pg-versions") { store in
            let server = try await PostgresServer.shared.value
            let configuration = try await server.makeDatabase()
            let database = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
            let peerDatabase = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
            try await S3ObjectStore.withObjectStore(configuration: store.configuration) { peerStore in
                try await conformance.run(
                    { retention, now in
                        try await PostgresStorage.open(
                            database: database, configuration: .init(versionRetention: retention, now: now),
                            chunkBodies: ObjectStoreBackends.bodies(store, now: now))
                    },
                    peer: { retention, now in
                        try await PostgresStorage.open(
                            database: peerDatabase, configuration: .init(versionRetention: retention, now: now),
                            chunkBodies: ObjectStoreBackends.bodies(peerStore, now: now))
                    })
            }
            await database.shutdown()
            await peerDatabase.shutdown()
        }
    }
}
