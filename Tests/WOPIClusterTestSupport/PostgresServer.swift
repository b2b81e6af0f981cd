package import Foundation
package import Logging
import NIOConcurrencyHelpers
import PostgresNIO
package import PostgresStorage
import WOPITestSupport

/// A real PostgreSQL server from Debian's packages (`postgresql-15`), started for the tests: `initdb` in a
/// temporary folder, run as the unprivileged `postgres` user when the tests run as root, listening on a free
/// loopback port. It is killed when the test process exits.
///
/// It fails loudly, with what to install, when the binaries are missing: the tests never skip.
package final class PostgresServer: Sendable {
    /// The server most tests share (each test makes its own database in it).
    package static let shared = Task { try await PostgresServer.start() }

    /// The binaries of Debian's `postgresql-15` package.
    package static let binaries = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")
    /// The role the tests connect as (trusted on loopback).
    package static let role = "wopi"

    package let directory: URL
    package let port: Int
    private let process = NIOLockedValueBox<Process?>(nil)
    private let databaseCount = NIOLockedValueBox(0)
    private let logFile: URL

    private init(directory: URL, port: Int) {
        self.directory = directory
        self.port = port
        self.logFile = directory.appendingPathComponent("server.log")
    }

    /// Creates a cluster in a new temporary folder and starts it.
    package static func start() async throws -> PostgresServer {
        let initdb = binaries.appendingPathComponent("initdb")
        guard FileManager.default.isExecutableFile(atPath: initdb.path) else {
            throw HostProcessError(
                "PostgreSQL 15 is not installed (\(initdb.path) is missing): run `scripts/install-deps.sh --test` "
                    + "(Debian's postgresql-15) before the tests.")
        }
        let directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("wopikit-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        ChildProcesses.removeAtExit(directory)
        let server = PostgresServer(directory: directory, port: try LoopbackPort.free())
        try server.handOver(directory)
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            server.asServerUser(
                initdb.path, "-D", server.dataDirectory.path, "-U", role, "-A", "trust", "-E", "UTF8",
                "--locale=C", "--no-sync"))
        guard result.status == 0 else {
            throw HostProcessError("initdb failed (\(result.status)): \(result.output) \(result.error)")
        }
        try await server.resume()
        return server
    }

    package var dataDirectory: URL { directory.appendingPathComponent("data") }

    /// Starts (or restarts) the server on its port and waits until it accepts connections.
    package func resume() async throws {
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        defer { try? log.close() }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // fsync is off: the tests stop the server cleanly and never cut its power.
        child.arguments = asServerUser(
            Self.binaries.appendingPathComponent("postgres").path, "-D", dataDirectory.path, "-p", "\(port)",
            "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=\(directory.path)",
            "-c", "fsync=off", "-c", "max_connections=400", "-c", "shared_buffers=32MB",
            // Every statement counted per database, so a test can count a request's round trips (StatementCounts).
            "-c", "shared_preload_libraries=pg_stat_statements")
        child.standardOutput = log
        child.standardError = log
        try child.run()
        ChildProcesses.register(child.processIdentifier)
        process.withLockedValue { $0 = child }
        let ready = try await Polling.until(every: .milliseconds(50)) {
            let printed = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            if printed.contains("database system is ready to accept connections") { return true }
            guard child.isRunning else { throw HostProcessError("PostgreSQL exited on start:\n\(printed)") }
            return false
        }
        if ready { return }
        throw HostProcessError("PostgreSQL did not start within a minute; its log is in \(logFile.path).")
    }

    /// Stops the server (PostgreSQL's fast shutdown: connections are cut, committed data kept).
    package func stop() async {
        guard let child = process.withLockedValue({ $0 }) else { return }
        if child.isRunning { kill(child.processIdentifier, SIGINT) }
        while child.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        ChildProcesses.unregister(child.processIdentifier)
    }

    /// A new empty database in this server, and the configuration to reach it.
    package func makeDatabase(poolSize: Int = 4) async throws -> PostgresPool.Configuration {
        let name = "test_\(databaseCount.withLockedValue { count in count += 1; return count })"
        let admin = PostgresPool.Configuration(
            host: "127.0.0.1", port: port, username: Self.role, database: "postgres", poolSize: 1)
        let database = try await PostgresPool.open(admin, logger: Self.logger)
        defer { Task { await database.shutdown() } }
        _ = try await database.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)")).collect()
        // The suites run in parallel, several with host processes of their own: on a loaded 2-core machine a
        // connection can stay busy for seconds, so a lease waits up to 30 s before the operation fails. 10 s was
        // not enough on a machine whose CPU was three times slower: 32 concurrent sign-in failures (one row, so one
        // commit after the other) timed out while the suites beside them wrote gigabytes. No test here waits for
        // this timeout to pass (`PoolLeaseTimeoutTests` sets its own).
        var configuration = PostgresPool.Configuration(
            host: "127.0.0.1", port: port, username: Self.role, database: name, poolSize: poolSize,
            leaseTimeout: .seconds(30))
        // The suites open hundreds of pools and host processes on this one server together: opening every pool's
        // connections at start passed its `max_connections` ("sorry, too many clients already"). A test of the
        // open connections sets this back (`PoolConnectionTests`).
        configuration.keepsConnectionsOpen = false
        return configuration
    }

    /// The `postgres://` URL of a database of this server, with the configuration's pool size: a `serve` keeps that
    /// many connections open, and the tests start many hosts on this one server together.
    package func url(_ configuration: PostgresPool.Configuration) -> String {
        "postgres://\(Self.role)@127.0.0.1:\(port)/\(configuration.database ?? Self.role)?pool=\(configuration.poolSize)"
    }

    /// Test logs stay at warning level.
    package static let logger: Logger = {
        var logger = Logger(label: "postgres-tests")
        logger.logLevel = .warning
        return logger
    }()

    // MARK: - Unprivileged user

    private static var isRoot: Bool { geteuid() == 0 }

    /// `command…` as arguments of `/usr/bin/env`, through `setpriv` to the `postgres` user when running as root
    /// (PostgreSQL refuses to run as root).
    private func asServerUser(_ command: String...) -> [String] {
        guard Self.isRoot else { return command }
        return ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups"] + command
    }

    /// Gives the folder to the `postgres` user when running as root.
    private func handOver(_ directory: URL) throws {
        guard Self.isRoot else { return }
        guard let user = getpwnam("postgres") else {
            throw HostProcessError(
                "The tests run as root but there is no `postgres` user to run PostgreSQL as: install Debian's "
                    + "postgresql-15 (scripts/install-deps.sh --test), which creates it.")
        }
        guard chown(directory.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
            throw HostProcessError("Cannot give \(directory.path) to the postgres user (errno \(errno)).")
        }
    }
}
