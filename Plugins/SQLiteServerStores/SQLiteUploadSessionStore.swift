public import Foundation
import GRDB
public import NIOCore
public import SQLiteStorage
import ServerStoreTables
public import WOPIServer
import WOPIStorage

/// A ``WOPIServer/UploadSessionStore`` in a ``SQLiteStorage/SQLiteDatabase``: upload sessions (CSPP Plus resumable
/// file transfer) survive a restart, and every process on the database file continues a session another started.
///
/// The tables of ``schema`` (their one definition): one row per session, one per stored piece. Counting an
/// attempt's pieces and moving the session's length on is one write transaction.
public final class SQLiteUploadSessionStore: UploadSessionStore {
    /// The tables of the upload session store.
    public static let schema: SQLiteSchema = .init(StoreTables.uploadSessions)

    /// The database the sessions live in.
    public let database: SQLiteDatabase

    /// Opens the store in `database`, installing or upgrading its tables.
    public init(database: SQLiteDatabase) throws {
        self.database = database
        try database.install(Self.schema)
    }

    public func create(_ session: UploadSession) async throws {
        try await database.write("create an upload session of \(session.file)") { db in
            try db.execute(
                sql: """
                    INSERT INTO upload_sessions (token, file_id, user_id, length, expires_at) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    session.token, session.file.rawValue, session.userID, session.length,
                    session.expiresAt.timeIntervalSince1970,
                ])
        }
    }

    public func session(_ token: String) async throws -> UploadSession? {
        try await database.read("read an upload session") { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT file_id, user_id, length, expires_at FROM upload_sessions WHERE token = ?",
                    arguments: [token]),
                let file = ItemID(rawValue: row["file_id"])
            else { return nil }
            return UploadSession(
                token: token, file: file, userID: row["user_id"], length: row["length"],
                expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
        }
    }

    public func storePiece(_ bytes: ByteBuffer, of token: String, attempt: String, at offset: Int64) async throws {
        let data = Data(bytes.readableBytesView)
        try await database.write("store a piece of an upload session") { db in
            try db.execute(
                sql: "INSERT INTO upload_session_pieces (token, attempt, start_at, bytes) VALUES (?, ?, ?, ?)",
                arguments: [token, attempt, offset, data])
        }
    }

    public func commitAttempt(
        _ attempt: String, of token: String, from length: Int64, to newLength: Int64, expiresAt: Date, now: Date
    ) async throws -> Bool {
        try await database.write("count an update of an upload session") { db in
            try db.execute(
                sql: """
                    UPDATE upload_sessions SET length = ?, expires_at = ?
                    WHERE token = ? AND length = ? AND expires_at > ?
                    """,
                arguments: [newLength, expiresAt.timeIntervalSince1970, token, length, now.timeIntervalSince1970])
            guard db.changesCount == 1 else { return false }
            try db.execute(
                sql: "UPDATE upload_session_pieces SET counted = 1 WHERE token = ? AND attempt = ?",
                arguments: [token, attempt])
            try db.execute(
                sql: "DELETE FROM upload_session_pieces WHERE token = ? AND counted = 0", arguments: [token])
            return true
        }
    }

    public func piece(of token: String, at offset: Int64) async throws -> ByteBuffer? {
        let data = try await database.read("read a piece of an upload session") { db in
            try Data.fetchOne(
                db, sql: "SELECT bytes FROM upload_session_pieces WHERE token = ? AND counted = 1 AND start_at = ?",
                arguments: [token, offset])
        }
        return data.map { ByteBuffer(bytes: $0) }
    }

    public func removeSession(_ token: String) async throws {
        try await database.write("remove an upload session") { db in
            try db.execute(sql: "DELETE FROM upload_session_pieces WHERE token = ?", arguments: [token])
            try db.execute(sql: "DELETE FROM upload_sessions WHERE token = ?", arguments: [token])
        }
    }

    @discardableResult
    public func removeExpired(now: Date) async throws -> Int {
        try await database.write("remove the expired upload sessions") { db in
            try db.execute(
                sql: "DELETE FROM upload_sessions WHERE expires_at <= ?", arguments: [now.timeIntervalSince1970])
            let removed = db.changesCount
            try db.execute(
                sql: "DELETE FROM upload_session_pieces WHERE token NOT IN (SELECT token FROM upload_sessions)")
            return removed
        }
    }
}
