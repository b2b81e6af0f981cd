import Foundation
import WOPIStorage

extension PostgresPool {
    /// Where the database is and how many connections each process keeps to it.
    public struct Configuration: Sendable, Hashable {
        /// The server's host name or address.
        public var host: String
        /// The server's TCP port. Default 5432.
        public var port: Int
        /// The role to connect as.
        public var username: String
        /// The role's password, if the server asks for one.
        public var password: String?
        /// The database name; `nil` means the role's name.
        public var database: String?
        /// The most connections this process opens. Default 10.
        public var poolSize: Int
        /// How long an operation waits for a connection (and a new connection for the server) before failing
        /// with ``WOPIStorage/StorageError/Code/unavailable``. Default 5 seconds.
        public var leaseTimeout: Duration
        /// Whether the pool opens its ``poolSize`` connections at once and keeps them open while idle. Default
        /// `true`.
        ///
        /// postgres-nio's pool gives a connection it may close (one above its minimum) an idle timer each time the
        /// connection goes back to it: a task that sleeps, cancelled at the next lease. Under load that is once per
        /// statement, and it cost a CheckFileInfo about 30% of the host's CPU (Docs/benchmarks.md, "Spans only when
        /// traced; SQLite rows read by position; PostgreSQL connections kept open"). With `false`, connections are
        /// opened on demand and closed after 60 s idle, for a server whose `max_connections` cannot hold every
        /// process's ``poolSize``. Either way, no keep-alive query runs; a connection the server or the network
        /// closes leaves the pool when the pool sees it close, and one that was kept open is opened again.
        public var keepsConnectionsOpen = true

        /// Creates a configuration; the connection is not encrypted (run the hosts next to the database, or on a
        /// private network).
        public init(
            host: String, port: Int = 5432, username: String, password: String? = nil, database: String? = nil,
            poolSize: Int = 10, leaseTimeout: Duration = .seconds(5)
        ) {
            precondition(poolSize > 0, "A pool has at least one connection.")
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.poolSize = poolSize
            self.leaseTimeout = leaseTimeout
        }

        /// Reads a URL of the form `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?pool=N]`.
        ///
        /// - Throws: ``WOPIStorage/StorageError/Code/invalidName`` when the URL is not of that form.
        public init(url text: String) throws {
            guard let components = URLComponents(string: text),
                components.scheme == "postgres" || components.scheme == "postgresql",
                let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty
            else {
                throw StorageError(
                    .invalidName, "\"\(text)\" is not a database URL; write postgres://USER@HOST:PORT/DATABASE.")
            }
            let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            self.init(
                host: host, port: components.port ?? 5432, username: user, password: components.password,
                database: path.isEmpty ? nil : path)
            if let pool = components.queryItems?.first(where: { $0.name == "pool" })?.value {
                guard let size = Int(pool), size > 0 else {
                    throw StorageError(.invalidName, "The pool size in \"\(text)\" is not a positive number.")
                }
                poolSize = size
            }
        }
    }
}
