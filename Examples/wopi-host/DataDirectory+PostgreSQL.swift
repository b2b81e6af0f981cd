#if PostgreSQL
    import Logging
    import PostgresStorage

    extension DataDirectory {
        /// Opens the pool of `--database`, failing with what to fix when the URL is wrong or the server unreachable
        /// (`PostgresPool.Configuration.keepsConnectionsOpen` set to `keepingConnectionsOpen`).
        static func openDatabase(url: String, keepingConnectionsOpen: Bool) async throws -> PostgresPool {
            var configuration: PostgresPool.Configuration
            do {
                configuration = try PostgresPool.Configuration(url: url)
            } catch {
                throw ValidationFailure("--database: \(error)")
            }
            configuration.keepsConnectionsOpen = keepingConnectionsOpen
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
    }
#endif
