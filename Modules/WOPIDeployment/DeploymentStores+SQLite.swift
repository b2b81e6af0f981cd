#if SQLite
    import ChunkedVersionStore
    public import Foundation
    public import S3ObjectStore
    import SQLiteServerStores
    public import SQLiteStorage
    import WOPIServer
    public import WOPIStorage

    extension DeploymentStores {
        /// One SQLite file, `DIRECTORY/wopi.sqlite`, holds everything, with an hourly garbage collector; the keys are
        /// files in `DIRECTORY/secrets/`, the templates in `DIRECTORY/templates/` (``templates(in:)``). Several
        /// processes may share the directory, and should open it with the same `versionRetention` (which versions of
        /// a file each save and garbage collection keep; Docs/versions.md).
        public static func sqlite(directory: URL, versionRetention: VersionRetention = .standard) throws
            -> DeploymentStores
        {
            try sqlite(directory: directory, versionRetention: versionRetention, content: nil)
        }

        /// As ``sqlite(directory:versionRetention:)``, with the content of files in the bucket of `objectStore`
        /// (created when missing) and only their names, versions and chunk index in `DIRECTORY/wopi.sqlite`
        /// (Docs/object-storage.md). `/readyz` includes the bucket.
        public static func sqlite(
            directory: URL, versionRetention: VersionRetention = .standard, objectStore: S3ObjectStore.Configuration
        ) async throws -> DeploymentStores {
            let content = try await ObjectStoreContent.open(objectStore)
            return try sqlite(directory: directory, versionRetention: versionRetention, content: content)
        }

        private static func sqlite(directory: URL, versionRetention: VersionRetention, content: ObjectStoreContent?)
            throws -> DeploymentStores
        {
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("wopi.sqlite").path)
            let storage = try SQLiteStorage(
                database: database, configuration: SQLiteStorage.Configuration(versionRetention: versionRetention),
                chunkBodies: content?.bodies)
            var stores = DeploymentStores(
                storage: storage, locks: try SQLiteLockStore(database: database),
                users: try SQLiteUserDirectory(database: database), shares: try SQLiteShareStore(database: database),
                activities: try SQLiteActivityLog(database: database), oauth: try SQLiteOAuthStore(database: database),
                throttle: try SQLiteSignInThrottleStore(database: database),
                keys: DirectorySigningKeys(directory: directory.appendingPathComponent("secrets")),
                templates: templates(in: directory),
                services: { logger in [StorageGarbageCollector(storage: storage, logger: logger)] },
                readiness: [.database(database), .writableFolder(directory)] + (content.map { [$0.readiness] } ?? []),
                audit: FileAuditLog(url: directory.appendingPathComponent("audit.jsonl")))
            stores.contentStreams = try SQLiteContentStreamStore(database: database)
            stores.uploadSessions = try SQLiteUploadSessionStore(database: database)
            return stores
        }
    }

    extension ReadinessCheck {
        /// The SQLite database answers a query.
        public static func database(_ database: SQLiteDatabase) -> ReadinessCheck {
            ReadinessCheck("database") { try await database.ping() }
        }
    }
#endif
