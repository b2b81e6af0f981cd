public import Foundation
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
public import WOPIAuthorizationServer

/// A ``WOPIAuthorizationServer/SignInThrottleStore`` in a ``PostgresStorage/PostgresPool``: failed sign-ins are
/// counted in the shared database, so a lock-out holds on every host and across restarts.
///
/// One row per key in the `sign_in_failures` table of ``schema``. A failure is counted by one statement
/// (`INSERT … ON CONFLICT DO UPDATE … RETURNING`), so concurrent failures on several hosts are all counted; counts
/// whose last failure is before `forgetBefore` restart at one, and the same transaction deletes the forgotten ones.
public final class PostgresSignInThrottleStore: SignInThrottleStore {
    /// The table of the sign-in throttle.
    public static let schema: PostgresSchema = .init(StoreTables.signInThrottle)

    /// The database the counts live in.
    public let database: PostgresPool

    private init(database: PostgresPool) { self.database = database }

    /// Opens the store in `database`, installing its table.
    public static func open(database: PostgresPool) async throws -> PostgresSignInThrottleStore {
        try await database.install(schema)
        return PostgresSignInThrottleStore(database: database)
    }

    public func failures(_ key: String) async throws -> SignInFailures? {
        let logger = database.logger
        return try await database.withConnection("read the failed sign-ins of \(key)") { connection in
            let rows = try await connection.query(
                "SELECT count, last_failure FROM sign_in_failures WHERE key = \(key)", logger: logger
            ).decode((Int, Double).self)
            for try await (count, last) in rows {
                return SignInFailures(count: count, last: Date(timeIntervalSince1970: last))
            }
            return nil
        }
    }

    public func recordFailure(_ key: String, at date: Date, forgetBefore: Date) async throws -> SignInFailures {
        let at = date.timeIntervalSince1970
        let cutoff = forgetBefore.timeIntervalSince1970
        let logger = database.logger
        return try await database.transaction("count a failed sign-in of \(key)") { connection in
            try await connection.query(
                "DELETE FROM sign_in_failures WHERE last_failure < \(cutoff) AND key <> \(key)", logger: logger)
            let rows = try await connection.query(
                """
                INSERT INTO sign_in_failures (key, count, last_failure) VALUES (\(key), 1, \(at))
                ON CONFLICT (key) DO UPDATE SET
                  count = CASE WHEN sign_in_failures.last_failure < \(cutoff) THEN 1
                               ELSE sign_in_failures.count + 1 END,
                  last_failure = GREATEST(sign_in_failures.last_failure, excluded.last_failure)
                RETURNING count, last_failure
                """, logger: logger
            ).decode((Int, Double).self)
            for try await (count, last) in rows {
                return SignInFailures(count: count, last: Date(timeIntervalSince1970: last))
            }
            throw StorageFailure.notStored(key)
        }
    }

    public func resetFailures(_ key: String) async throws {
        try await database.execute(
            "forget the failed sign-ins of \(key)", "DELETE FROM sign_in_failures WHERE key = \(key) RETURNING 1")
    }

    /// The database answered an upsert with no row: it is broken.
    enum StorageFailure: Error { case notStored(String) }
}
