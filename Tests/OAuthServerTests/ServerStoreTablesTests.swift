import Foundation
import GRDB
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPITestSupport

/// The SQLite server stores build their schemas from the tables `ServerStoreTables` defines once for both
/// databases: the migrations a file records and the columns they make are those the stores shipped with.
@Suite("Server store tables on SQLite")
struct ServerStoreTablesTests {
    @Test("every server store records its shipped migrations and makes its shipped columns")
    func shippedSchemas() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try SQLiteDatabase(path: directory.appending("stores.sqlite").path)
        _ = try SQLiteUserDirectory(database: database)
        _ = try SQLiteOAuthStore(database: database)
        _ = try SQLiteShareStore(database: database)
        _ = try SQLiteActivityLog(database: database)
        _ = try SQLiteAuditLog(database: database)
        _ = try SQLiteSignInThrottleStore(database: database)
        #expect(
            try await database.appliedMigrations() == [
                "users.v1", "users.v2", "oauth.v1", "oauth.v2", "shares.v1", "activities.v1", "audit.v1",
                "sign_in_throttle.v1",
            ])
        let columns = try await database.read("read the columns") { db in
            var columns: [String: [String]] = [:]
            for table in [
                "users", "oauth_clients", "oauth_codes", "oauth_tokens", "oauth_revoked_families", "shares",
                "activities", "audit_events", "sign_in_failures",
            ] {
                columns[table] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { row in
                    let name: String = row["name"]
                    let type: String = row["type"]
                    let notNull: Bool = row["notnull"]
                    let key: Int = row["pk"]
                    return "\(name) \(type)\(notNull ? " NOT NULL" : "")\(key > 0 ? " KEY" : "")"
                }
            }
            return columns
        }
        #expect(
            columns["users"] == [
                "id TEXT NOT NULL KEY", "sign_in_name TEXT NOT NULL", "display_name TEXT NOT NULL",
                "password_hash TEXT",
                "user_info TEXT", "sign_in_key TEXT",
            ])
        #expect(columns["oauth_clients"] == ["id TEXT NOT NULL KEY", "record TEXT NOT NULL"])
        for table in ["oauth_codes", "oauth_tokens"] {
            #expect(
                columns[table] == [
                    "hash TEXT NOT NULL KEY", "family_id TEXT NOT NULL", "expires_at REAL NOT NULL",
                    "record TEXT NOT NULL",
                ])
        }
        #expect(columns["oauth_revoked_families"] == ["family_id TEXT NOT NULL KEY", "until REAL NOT NULL"])
        #expect(
            columns["shares"] == [
                "item_id TEXT NOT NULL KEY", "grantee_id TEXT NOT NULL KEY", "permission INTEGER NOT NULL",
                "granted_by TEXT NOT NULL", "granted_at REAL NOT NULL",
            ])
        #expect(
            columns["activities"] == [
                "seq INTEGER KEY", "file_id TEXT NOT NULL", "user_id TEXT NOT NULL", "received_at REAL NOT NULL",
                "type TEXT NOT NULL", "activity_id TEXT NOT NULL", "json TEXT NOT NULL",
            ])
        #expect(
            columns["audit_events"] == [
                "seq INTEGER KEY", "at REAL NOT NULL", "user_id TEXT", "item_id TEXT", "json TEXT NOT NULL",
            ])
        #expect(
            columns["sign_in_failures"] == [
                "key TEXT NOT NULL KEY", "count INTEGER NOT NULL", "last_failure REAL NOT NULL",
            ])
    }
}
