import Foundation
import GRDB
import SQLiteStorage
import Testing
import WOPIStorage

@Suite("SQLite database: migrations, pragmas, backup")
struct SQLiteDatabaseTests {
    @Test("migrations run on a fresh file and are idempotent on reopen")
    func migrations() async throws {
        let file = try TemporaryDatabaseFile()
        let database = try file.openDatabase()
        #expect(try await database.appliedMigrations() == [])
        _ = try SQLiteStorage(database: database)
        _ = try SQLiteLockStore(database: database)
        #expect(
            try await database.appliedMigrations() == [
                "storage.v1", "storage.v2", "storage.v3", "storage.v4", "locks.v1", "locks.v2",
            ])
        try database.install(SQLiteStorage.schema)

        // A later release adds a schema of its own to the same file.
        var extra = SQLiteSchema(name: "oauth")
        extra.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE oauth_clients (id TEXT PRIMARY KEY)") }
        let reopened = try file.openDatabase()
        _ = try SQLiteStorage(database: reopened)
        _ = try SQLiteLockStore(database: reopened)
        try reopened.install(extra)
        try reopened.install(extra)
        #expect(
            try await reopened.appliedMigrations() == [
                "storage.v1", "storage.v2", "storage.v3", "storage.v4", "locks.v1", "locks.v2", "oauth.v1",
            ])
        #expect(extra.migrationIdentifiers == ["oauth.v1"])
        #expect(try await reopened.integrityCheck() == ["ok"])
    }

    @Test("the pool runs in WAL mode with foreign keys and full sync")
    func pragmas() async throws {
        let file = try TemporaryDatabaseFile()
        let database = try file.openDatabase()
        let (journal, foreignKeys, synchronous) = try await database.pool.write { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
                try Int.fetchOne(db, sql: "PRAGMA synchronous")
            )
        }
        #expect(journal == "wal" && foreignKeys == 1 && synchronous == 2)
    }

    @Test("a live database backs up to a consistent copy")
    func backup() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        let doc = try await storage.createFile(
            named: "a.bin", in: root.id, content: TestContent.stream(seed: 7, size: 300_000), overwrite: false)
        let copyPath = file.directory.appendingPathComponent("copy.sqlite").path
        try await storage.database.backup(to: copyPath)
        // The copy's chunk folder came with it.
        #expect(FileManager.default.fileExists(atPath: "\(copyPath)-chunks/\(doc.version)/0"))
        let copy = try SQLiteStorage(database: SQLiteDatabase(path: copyPath))
        #expect(try await copy.file(doc.id) == doc)
        #expect(try await TestContent.collect(copy.readFile(doc.id).body) == TestContent.bytes(seed: 7, 0..<300_000))
    }

    @Test("a file that is not a database is reported as corrupt")
    func notADatabase() async throws {
        let file = try TemporaryDatabaseFile()
        try Data(repeating: 0x41, count: 8_192).write(to: URL(fileURLWithPath: file.path))
        do {
            _ = try file.openStorage()
            Issue.record("opening garbage should fail")
        } catch let error as StorageError {
            #expect(error.code == .corrupt, "\(error)")
        }
    }
}
