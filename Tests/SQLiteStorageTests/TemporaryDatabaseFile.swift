import ChunkedVersionStore
import Foundation
import GRDB
import Logging
import SQLiteStorage
import WOPIStorage

/// A database file in a fresh temporary directory, removed with the directory when the value goes away.
final class TemporaryDatabaseFile: Sendable {
    let directory: URL
    let path: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sqlite-storage-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("wopi.sqlite").path
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Opens a new connection pool on the file, as another host process would.
    func openDatabase(synchronous: SQLiteDatabase.Configuration.Synchronous = .full) throws -> SQLiteDatabase {
        var logger = Logger(label: "sqlite-storage-tests")
        logger.logLevel = .warning
        return try SQLiteDatabase(path: path, configuration: .init(synchronous: synchronous, logger: logger))
    }

    /// Opens a storage on a new connection pool.
    func openStorage(_ configuration: SQLiteStorage.Configuration = .init()) throws -> SQLiteStorage {
        try SQLiteStorage(database: openDatabase(), configuration: configuration)
    }

    /// Counts the rows of `table` matching `condition`.
    static func count(_ database: SQLiteDatabase, _ table: String, where condition: String = "1") async throws -> Int {
        try await database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(condition)") ?? -1
        }
    }

    /// Counts the content pieces that no file's current version lists.
    static func strayChunks(_ database: SQLiteDatabase) async throws -> Int {
        try await count(
            database, "chunk_pieces",
            where: """
                NOT EXISTS (SELECT 1 FROM chunks c JOIN version_chunks v ON v.chunk_id = c.chunk_id
                            JOIN items i ON i.current_version_id = v.version_id
                            WHERE c.staged_version_id = chunk_pieces.version_id
                              AND c.staged_index = chunk_pieces.chunk_index)
                """)
    }
}
