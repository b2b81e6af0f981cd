public import Foundation
public import NIOCore
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
public import WOPIServer
import WOPIStorage

/// A ``WOPIServer/UploadSessionStore`` in a ``PostgresStorage/PostgresPool``: every host on the database continues
/// and commits the upload sessions (CSPP Plus resumable file transfer) another host started.
///
/// The tables of ``schema`` (their one definition): one row per session, one per stored piece (at most 1 MiB a
/// statement, so memory stays flat). Moving a session's length on is one guarded `UPDATE` in the transaction that
/// counts the attempt's pieces, so of two hosts appending at the same offset exactly one wins.
public final class PostgresUploadSessionStore: UploadSessionStore {
    /// The tables of the upload session store.
    public static let schema: PostgresSchema = .init(StoreTables.uploadSessions)

    /// The database the sessions live in.
    public let database: PostgresPool

    private init(database: PostgresPool) { self.database = database }

    /// Opens the store in `database`, installing its tables.
    public static func open(database: PostgresPool) async throws -> PostgresUploadSessionStore {
        try await database.install(schema)
        return PostgresUploadSessionStore(database: database)
    }

    public func create(_ session: UploadSession) async throws {
        try await database.execute(
            "create an upload session of \(session.file)",
            """
            INSERT INTO upload_sessions (token, file_id, user_id, length, expires_at)
            VALUES (\(session.token), \(session.file.rawValue), \(session.userID), \(session.length),
                    \(session.expiresAt.timeIntervalSince1970))
            """)
    }

    public func session(_ token: String) async throws -> UploadSession? {
        let logger = database.logger
        return try await database.withConnection("read an upload session") { connection in
            let rows = try await connection.query(
                "SELECT file_id, user_id, length, expires_at FROM upload_sessions WHERE token = \(token)",
                logger: logger
            ).decode((String, String, Int64, Double).self)
            for try await (file, user, length, expiry) in rows {
                guard let id = ItemID(rawValue: file) else { return nil }
                return UploadSession(
                    token: token, file: id, userID: user, length: length,
                    expiresAt: Date(timeIntervalSince1970: expiry))
            }
            return nil
        }
    }

    public func storePiece(_ bytes: ByteBuffer, of token: String, attempt: String, at offset: Int64) async throws {
        try await database.execute(
            "store a piece of an upload session",
            """
            INSERT INTO upload_session_pieces (token, attempt, start_at, bytes)
            VALUES (\(token), \(attempt), \(offset), \(bytes))
            """)
    }

    public func commitAttempt(
        _ attempt: String, of token: String, from length: Int64, to newLength: Int64, expiresAt: Date, now: Date
    ) async throws -> Bool {
        let logger = database.logger
        let expiry = expiresAt.timeIntervalSince1970
        let current = now.timeIntervalSince1970
        return try await database.transaction("count an update of an upload session") { connection in
            var moved = false
            for try await _ in try await connection.query(
                """
                UPDATE upload_sessions SET length = \(newLength), expires_at = \(expiry)
                WHERE token = \(token) AND length = \(length) AND expires_at > \(current) RETURNING 1
                """, logger: logger)
            {
                moved = true
            }
            guard moved else { return false }
            try await connection.query(
                "UPDATE upload_session_pieces SET counted = 1 WHERE token = \(token) AND attempt = \(attempt)",
                logger: logger)
            try await connection.query(
                "DELETE FROM upload_session_pieces WHERE token = \(token) AND counted = 0", logger: logger)
            return true
        }
    }

    public func piece(of token: String, at offset: Int64) async throws -> ByteBuffer? {
        try await database.values(
            "read a piece of an upload session", ByteBuffer.self,
            """
            SELECT bytes FROM upload_session_pieces WHERE token = \(token) AND counted = 1 AND start_at = \(offset)
            """
        ).first
    }

    public func removeSession(_ token: String) async throws {
        let logger = database.logger
        try await database.transaction("remove an upload session") { connection in
            try await connection.query("DELETE FROM upload_session_pieces WHERE token = \(token)", logger: logger)
            try await connection.query("DELETE FROM upload_sessions WHERE token = \(token)", logger: logger)
        }
    }

    @discardableResult
    public func removeExpired(now: Date) async throws -> Int {
        let logger = database.logger
        let current = now.timeIntervalSince1970
        return try await database.transaction("remove the expired upload sessions") { connection in
            var removed = 0
            for try await _ in try await connection.query(
                "DELETE FROM upload_sessions WHERE expires_at <= \(current) RETURNING 1", logger: logger)
            {
                removed += 1
            }
            try await connection.query(
                """
                DELETE FROM upload_session_pieces p
                WHERE NOT EXISTS (SELECT 1 FROM upload_sessions s WHERE s.token = p.token)
                """, logger: logger)
            return removed
        }
    }
}
