public import Foundation
import GRDB
public import SQLiteStorage
import ServerStoreTables
public import WOPIAuthorizationServer

/// A ``WOPIAuthorizationServer/SignInThrottleStore`` in a ``SQLiteStorage/SQLiteDatabase``: failed sign-ins are
/// counted in the host's database, so a lock-out survives a restart and holds for every process sharing the file.
///
/// One row per key in the `sign_in_failures` table of the `sign_in_throttle.v1` migration in ``schema`` (its one
/// definition). A failure is counted by one write transaction (`INSERT … ON CONFLICT DO UPDATE`), so concurrent
/// failures from several processes are all counted; the same transaction deletes counts the caller forgets.
public final class SQLiteSignInThrottleStore: SignInThrottleStore {
    /// The table of the sign-in throttle.
    public static let schema: SQLiteSchema = .init(StoreTables.signInThrottle)

    /// The database the counts live in.
    public let database: SQLiteDatabase

    /// Opens the store in `database`, installing or upgrading its table.
    public init(database: SQLiteDatabase) throws {
        self.database = database
        try database.install(Self.schema)
    }

    public func failures(_ key: String) async throws -> SignInFailures? {
        try await database.read("read the failed sign-ins of \(key)") { db in
            try Row.fetchOne(
                db, sql: "SELECT count, last_failure FROM sign_in_failures WHERE key = ?", arguments: [key]
            )
            .map(Self.failures)
        }
    }

    public func recordFailure(_ key: String, at date: Date, forgetBefore: Date) async throws -> SignInFailures {
        let at = date.timeIntervalSince1970
        let cutoff = forgetBefore.timeIntervalSince1970
        return try await database.write("count a failed sign-in of \(key)") { db in
            try db.execute(sql: "DELETE FROM sign_in_failures WHERE last_failure < ?", arguments: [cutoff])
            try db.execute(
                sql: """
                    INSERT INTO sign_in_failures (key, count, last_failure) VALUES (?, 1, ?)
                    ON CONFLICT(key) DO UPDATE SET count = count + 1, last_failure = max(last_failure, excluded.last_failure)
                    """,
                arguments: [key, at])
            let row = try Row.fetchOne(
                db, sql: "SELECT count, last_failure FROM sign_in_failures WHERE key = ?", arguments: [key])
            // The row was written by this transaction; a missing one would be a broken database.
            guard let row else { throw DatabaseError(message: "the failed sign-ins of \(key) were not stored") }
            return Self.failures(row)
        }
    }

    public func resetFailures(_ key: String) async throws {
        try await database.write("forget the failed sign-ins of \(key)") { db in
            try db.execute(sql: "DELETE FROM sign_in_failures WHERE key = ?", arguments: [key])
        }
    }

    private static func failures(_ row: Row) -> SignInFailures {
        SignInFailures(count: row["count"], last: Date(timeIntervalSince1970: row["last_failure"]))
    }
}
