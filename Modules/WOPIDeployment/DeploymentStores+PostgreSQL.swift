#if PostgreSQL
    import ChunkedVersionStore
    public import Crypto
    public import S3ObjectStore
    import PostgresServerStores
    public import PostgresStorage
    import WOPIServer
    public import WOPIStorage

    extension DeploymentStores {
        /// Every store and the keys in one PostgreSQL database shared by several hosts; the pool and the garbage
        /// collector run beside each host (the pool stops last). Every host should open it with the same
        /// `versionRetention` (which versions of a file each save and garbage collection keep; Docs/versions.md).
        public static func postgres(_ database: PostgresPool, versionRetention: VersionRetention = .standard)
            async throws -> DeploymentStores
        {
            try await postgres(database, versionRetention: versionRetention, content: nil)
        }

        /// As ``postgres(_:versionRetention:)``, with the content of files in the bucket of `objectStore` (created
        /// when missing), which every host shares, and only their names, versions and chunk index in the database
        /// (Docs/object-storage.md). `/readyz` includes the bucket.
        public static func postgres(
            _ database: PostgresPool, versionRetention: VersionRetention = .standard,
            objectStore: S3ObjectStore.Configuration
        ) async throws -> DeploymentStores {
            let content = try await ObjectStoreContent.open(objectStore)
            return try await postgres(database, versionRetention: versionRetention, content: content)
        }

        private static func postgres(
            _ database: PostgresPool, versionRetention: VersionRetention, content: ObjectStoreContent?
        ) async throws -> DeploymentStores {
            let storage = try await PostgresStorage.open(
                database: database, configuration: PostgresStorage.Configuration(versionRetention: versionRetention),
                chunkBodies: content?.bodies)
            var stores = DeploymentStores(
                storage: storage, locks: try await PostgresLockStore.open(database: database),
                users: try await PostgresUserDirectory.open(database: database),
                shares: try await PostgresShareStore.open(database: database),
                activities: try await PostgresActivityLog.open(database: database),
                oauth: try await PostgresOAuthStore.open(database: database),
                throttle: try await PostgresSignInThrottleStore.open(database: database),
                keys: PostgresSigningKeys(database: database),
                services: { logger in [database, StorageGarbageCollector(storage: storage, logger: logger)] },
                readiness: [.database(database)] + (content.map { [$0.readiness] } ?? []),
                audit: try await PostgresAuditLog.open(database: database))
            stores.contentStreams = try await PostgresContentStreamStore.open(database: database)
            stores.uploadSessions = try await PostgresUploadSessionStore.open(database: database)
            return stores
        }
    }

    extension ReadinessCheck {
        /// The PostgreSQL server answers a query on a pooled connection.
        public static func database(_ pool: PostgresPool) -> ReadinessCheck {
            ReadinessCheck("database") { try await pool.ping() }
        }
    }

    /// Signing keys in a PostgreSQL database, shared by every host on it (`PostgresKeyStore`).
    public struct PostgresSigningKeys: SigningKeyStore {
        /// The database.
        public let database: PostgresPool

        /// Keys in `database`.
        public init(database: PostgresPool) { self.database = database }

        public func key(named name: String) async throws -> SymmetricKey {
            try await PostgresKeyStore.loadOrCreate(name, in: database)
        }
    }
#endif
