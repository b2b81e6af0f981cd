#if SQLite
    import ChunkedVersionStore
    public import Foundation
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
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("wopi.sqlite").path)
            let storage = try SQLiteStorage(
                database: database, configuration: SQLiteStorage.Configuration(versionRetention: versionRetention))
            var stores = DeploymentStores(
                storage: storage, locks: try SQLiteLockStore(database: database),
                users: try SQLiteUserDirectory(database: database), shares: try SQLiteShareStore(database: database),
                activities: try SQLiteActivityLog(database: database), oauth: try SQLiteOAuthStore(database: database),
                throttle: try SQLiteSignInThrottleStore(database: database),
                keys: DirectorySigningKeys(directory: directory.appendingPathComponent("secrets")),
                templates: templates(in: directory),
                services: { logger in [StorageGarbageCollector(storage: storage, logger: logger)] },
                readiness: [.database(database), .writableFolder(directory)],
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
