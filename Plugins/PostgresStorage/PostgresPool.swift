import Foundation
import Logging
import Metrics
import NIOCore
import NIOPosix
public import PostgresNIO
public import ServiceLifecycle
import Synchronization
import WOPIStorage

/// A PostgreSQL database shared by every host process of a deployment: a pool of connections (postgres-nio's
/// `PostgresClient`) and the schema migrations of the stores that live in it.
///
/// Open one per process with ``open(_:logger:)`` and give it to each store (``PostgresStorage``,
/// ``PostgresLockStore``, the server stores of `PostgresServerStores`). The pool runs in a task of its own from
/// the moment it opens until ``shutdown()``. It is also a swift-service-lifecycle `Service`: in a host's
/// `ServiceGroup`, it closes the pool on graceful shutdown.
///
/// **When the database cannot be reached**, every operation fails within ``Configuration/leaseTimeout`` with
/// ``WOPIStorage/StorageError/Code/unavailable`` (a WOPI host answers `503` with `Retry-After`), and the pool
/// reconnects by itself once the server is back: the host needs no restart.
public final class PostgresPool: Service, Sendable {
    /// The pool every query goes through.
    public let client: PostgresClient
    /// Where the pool and the stores log.
    public let logger: Logger
    /// The settings it was opened with.
    public let configuration: Configuration
    private let runner: Mutex<Task<Void, Never>?>
    /// Timer `wopi_db_pool_wait_seconds{database="postgresql"}`: how long each operation waited for a connection.
    private let poolWait: Metrics.Timer

    private init(configuration: Configuration, logger: Logger) {
        var clientConfiguration = PostgresClient.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
        clientConfiguration.options.maximumConnections = configuration.poolSize
        // Connections of the minimum have no idle timer (`Configuration.keepsConnectionsOpen`).
        clientConfiguration.options.minimumConnections = configuration.keepsConnectionsOpen ? configuration.poolSize : 0
        clientConfiguration.options.connectTimeout = configuration.leaseTimeout
        // No keep-alive query. Its timer, also set each time a connection goes back to the pool, cost a CheckFileInfo
        // about 5% of the host's CPU: 245 against 233 µs, medians of 7 alternating runs (Docs/benchmarks.md,
        // "PutFile: the body's reader only reads"). Without `keepsConnectionsOpen`, the pool closes a connection idle
        // for 60 s (`connectionIdleTimeout`), so a keep-alive would only ever run on one idle between 30 and 60 s.
        clientConfiguration.options.keepAliveBehavior = nil
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.configuration = configuration
        self.runner = Mutex(Task { await client.run() })
        poolWait = Metrics.Timer(label: WOPIMetricName.poolWait, dimensions: [("database", "postgresql")])
    }

    /// Opens the pool and waits until the database answers.
    ///
    /// - Throws: ``WOPIStorage/StorageError/Code/unavailable`` when the server cannot be reached within
    ///   ``Configuration/leaseTimeout``.
    public static func open(_ configuration: Configuration, logger: Logger) async throws -> PostgresPool {
        let database = PostgresPool(configuration: configuration, logger: logger)
        do {
            try await database.withConnection("reach the database") { connection in
                _ = try await connection.query("SELECT 1", logger: logger).collect()
            }
        } catch {
            await database.shutdown()
            throw error
        }
        return database
    }

    /// Closes every connection; the database cannot be used afterwards.
    public func shutdown() async {
        let task = runner.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
    }

    /// Waits for the service group's graceful shutdown, then closes the pool.
    public func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Installs the migrations of `schema` that this database has not seen yet.
    ///
    /// Safe when several hosts start together: the migrations run in one transaction under a transaction-scoped
    /// advisory lock, so one host applies them and the others, waiting on the lock, then find them applied.
    public func install(_ schema: PostgresSchema) async throws {
        let logger = logger
        try await transaction("install the \(schema.name) schema") { connection in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(\(PostgresSchema.advisoryLockKey))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS wopikit_migrations (
                  identifier TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """, logger: logger)
            var applied: Set<String> = []
            for try await identifier in try await connection.query(
                "SELECT identifier FROM wopikit_migrations", logger: logger
            ).decode(String.self) {
                applied.insert(identifier)
            }
            for migration in schema.migrations where !applied.contains(migration.identifier) {
                logger.info("Applying PostgreSQL migration", metadata: ["migration": "\(migration.identifier)"])
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO wopikit_migrations (identifier) VALUES (\(migration.identifier))", logger: logger)
            }
        }
    }

    // MARK: - Running queries

    /// Runs `body` on a pooled connection, mapping database errors to ``WOPIStorage/StorageError``s.
    ///
    /// Waiting for a connection is bounded by ``Configuration/leaseTimeout``: past it (the server is down or
    /// every connection busy), the operation fails with ``WOPIStorage/StorageError/Code/unavailable``.
    package func withConnection<T: Sendable>(
        _ action: @autoclosure () -> String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let leased = LeaseFlag()
        let client = client
        let timeout = configuration.leaseTimeout
        let asked = ContinuousClock.now
        let poolWait = poolWait
        do {
            return try await withThrowingTaskGroup(of: Outcome<T>.self) { group in
                group.addTask {
                    .value(
                        try await client.withConnection { connection in
                            leased.set()
                            poolWait.record(duration: ContinuousClock.now - asked)
                            return try await body(connection)
                        })
                }
                group.addTask {
                    await Self.wait(timeout)
                    return .deadline
                }
                while let outcome = try await group.next() {
                    switch outcome {
                    case .value(let value):
                        group.cancelAll()
                        return value
                    case .deadline:
                        // Only a wait for a connection is cut short; a running query finishes or fails by itself.
                        if !leased.isSet { group.cancelAll() }
                    }
                }
                throw CancellationError()
            }
        } catch {
            throw PostgresErrorMapping.storageError(error, doing: action(), timedOut: !leased.isSet)
        }
    }

    /// Waits `duration` on the timer of the event loop the caller runs on (a request's, `Docs/architecture.md`), or
    /// of postgres-nio's, or until the task is cancelled. A `Task.sleep` here took a timer of Dispatch's for every
    /// query, 5% of a host's CPU under load; an event loop keeps its timers in a heap of its own.
    private static func wait(_ duration: Duration) async {
        let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? PostgresClient.defaultEventLoopGroup.next()
        let deadline = loop.scheduleTask(in: TimeAmount(duration)) {}
        await withTaskCancellationHandler {
            _ = try? await deadline.futureResult.get()
        } onCancel: {
            deadline.cancel()
        }
    }

    /// Runs `body` in one transaction (`READ COMMITTED`) on a pooled connection: committed when it returns, rolled
    /// back when it throws, and its own error rethrown.
    package func transaction<T: Sendable>(
        _ action: @autoclosure () -> String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let logger = logger
        return try await withConnection(action()) { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs one statement and returns how many rows it returned (write `RETURNING 1` to count changed rows).
    @discardableResult
    package func execute(_ action: @autoclosure () -> String, _ query: PostgresQuery) async throws -> Int {
        let logger = logger
        return try await withConnection(action()) { connection in
            var count = 0
            for try await _ in try await connection.query(query, logger: logger) { count += 1 }
            return count
        }
    }

    /// Runs `SELECT 1` on a pooled connection: throws ``WOPIStorage/StorageError/Code/unavailable`` when the server
    /// does not answer within ``Configuration/leaseTimeout``. A readiness probe's check.
    public func ping() async throws {
        try await execute("answer a readiness probe", "SELECT 1")
    }

    /// Runs one query and returns its rows' single column.
    package func values<T: PostgresDecodable & Sendable>(
        _ action: @autoclosure () -> String, _ type: T.Type, _ query: PostgresQuery
    ) async throws -> [T] {
        let logger = logger
        return try await withConnection(action()) { connection in
            var values: [T] = []
            for try await value in try await connection.query(query, logger: logger).decode(T.self) {
                values.append(value)
            }
            return values
        }
    }

    private enum Outcome<T: Sendable>: Sendable {
        case value(T)
        case deadline
    }
}

/// Whether an operation got its connection: then its deadline no longer applies.
private final class LeaseFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
