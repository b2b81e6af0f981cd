import Logging
import PostgresServerStores
import PostgresStorage
import ServiceLifecycle
import WOPIStorage

extension DataDirectory {
    /// Opens the pool of `--database`, failing with what to fix when the URL is wrong or the server unreachable.
    static func openDatabase(url: String) async throws -> PostgresPool {
        let configuration: PostgresPool.Configuration
        do {
            configuration = try PostgresPool.Configuration(url: url)
        } catch {
            throw ValidationFailure("--database: \(error)")
        }
        var logger = Logger(label: "wopi-host.postgres") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        do {
            return try await PostgresPool.open(configuration, logger: logger)
        } catch {
            throw ValidationFailure(
                "--database: cannot reach \(configuration.host):\(configuration.port) (\(error)); start PostgreSQL or "
                    + "fix the URL.")
        }
    }

    /// Every store in one PostgreSQL database; the pool and the garbage collector run beside the host.
    static func postgresStores(_ database: PostgresPool) async throws -> Stores {
        let storage = try await PostgresStorage.open(database: database)
        return Stores(
            storage: storage, locks: try await PostgresLockStore.open(database: database),
            users: try await PostgresUserDirectory.open(database: database),
            shares: try await PostgresShareStore.open(database: database),
            activities: try await PostgresActivityLog.open(database: database),
            oauth: try await PostgresOAuthStore.open(database: database),
            throttle: try await PostgresSignInThrottleStore.open(database: database),
            maintenance: { logger in [StorageGarbageCollector(storage: storage, logger: logger), database] })
    }
}
