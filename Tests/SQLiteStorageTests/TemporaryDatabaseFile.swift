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

    /// Opens a storage on a new connection pool; by default without history, as these suites check that a replaced
    /// version's content is reclaimed (`SQLiteVersionConformanceTests` checks history).
    func openStorage(_ configuration: SQLiteStorage.Configuration = .noHistory) throws -> SQLiteStorage {
        try SQLiteStorage(database: openDatabase(), configuration: configuration)
    }

    /// Counts the rows of `table` matching `condition`.
    static func count(_ database: SQLiteDatabase, _ table: String, where condition: String = "1") async throws -> Int {
        try await database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(condition)") ?? -1
        }
    }

    /// Counts the content pieces and chunk files that no file's current version lists.
    static func strayChunks(_ database: SQLiteDatabase) async throws -> Int {
        let pieces = try await count(
            database, "chunk_pieces",
            where: """
                NOT EXISTS (SELECT 1 FROM chunks c JOIN version_chunks v ON v.chunk_id = c.chunk_id
                            JOIN items i ON i.current_version_id = v.version_id
                            WHERE c.staged_version_id = chunk_pieces.version_id
                              AND c.staged_index = chunk_pieces.chunk_index)
                """)
        let listed = try await database.pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT c.staged_version_id, c.staged_index FROM chunks c
                    JOIN version_chunks v ON v.chunk_id = c.chunk_id JOIN items i ON i.current_version_id = v.version_id
                    WHERE c.in_file = 1
                    """
            ).map { "\($0[0] as Int64)/\($0[1] as Int64)" }
        }
        return try pieces + chunkFiles(database).keys.filter { !listed.contains($0) }.count
    }

    /// The chunk files beside the database (`VERSION/INDEX`, relative to the chunk folder) and their sizes.
    static func chunkFiles(_ database: SQLiteDatabase) throws -> [String: Int] {
        let folder = URL(fileURLWithPath: database.chunkFolder)
        var files: [String: Int] = [:]
        for version in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where Int64(version) != nil {
            for chunk in try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent(version).path)
            {
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent(version).appendingPathComponent(chunk).path)
                files["\(version)/\(chunk)"] = (attributes[.size] as? NSNumber)?.intValue ?? -1
            }
        }
        return files
    }
}

extension SQLiteStorage.Configuration {
    /// The defaults, keeping only each file's current version.
    static let noHistory = SQLiteStorage.Configuration(versionRetention: .currentOnly)
}
