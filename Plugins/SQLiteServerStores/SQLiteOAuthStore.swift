public import Foundation
import GRDB
import JSONRecordCodec
public import SQLiteStorage
import ServerStoreTables
public import WOPIAuthorizationServer
import WOPIServer

/// An ``WOPIServer/OAuthStore`` in a ``SQLiteStorage/SQLiteDatabase``: OAuth clients, authorization codes and
/// tokens survive restarts and are shared by every host process using the file.
///
/// Codes and tokens are stored only as hashes (the store receives hashes). Each record is kept as JSON (its
/// `Codable` form, so it always has every field the server knows) beside the columns the store queries. A
/// redemption is one `IMMEDIATE` write transaction, so a code or refresh token is used at most once even when
/// several processes race for it. Expired codes and tokens are deleted when a new one is saved.
///
/// The tables are those of the `oauth.v1` and `oauth.v2` (revoked families) migrations in ``schema``
/// (`StoreTables.oauth`, shared with PostgreSQL). A write transaction serializes ``saveToken(_:)`` against ``revokeFamily(_:)``.
public final class SQLiteOAuthStore: OAuthStore {
    /// The tables of the OAuth store: clients, authorization codes and tokens.
    public static let schema: SQLiteSchema = .init(StoreTables.oauth)

    /// The database the records live in.
    public let database: SQLiteDatabase
    private let now: @Sendable () -> Date

    /// Opens the store in `database`, installing or upgrading its tables.
    ///
    /// - Parameter now: the clock used to delete expired records, for tests.
    public init(database: SQLiteDatabase, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.database = database
        self.now = now
        try database.install(Self.schema)
    }

    // MARK: Clients

    public func client(_ id: String) async throws -> OAuthClient? {
        try await database.read("read the OAuth client \(id)") { db in
            try Self.record(db, "SELECT record FROM oauth_clients WHERE id = ?", [id])
        }
    }

    public func saveClient(_ client: OAuthClient) async throws {
        let json = try JSONRecordCodec.encode(client)
        try await database.write("save the OAuth client \(client.id)") { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO oauth_clients (id, record) VALUES (?, ?)", arguments: [client.id, json])
        }
    }

    public func allClients() async throws -> [OAuthClient] {
        try await database.read("list the OAuth clients") { db in
            try String.fetchAll(db, sql: "SELECT record FROM oauth_clients ORDER BY id").map(JSONRecordCodec.decode)
        }
    }

    // MARK: Codes

    public func saveCode(_ code: OAuthCodeRecord) async throws {
        let json = try JSONRecordCodec.encode(code)
        let now = now().timeIntervalSince1970
        try await database.write("save an authorization code") { db in
            try db.execute(sql: "DELETE FROM oauth_codes WHERE expires_at <= ?", arguments: [now])
            try db.execute(
                sql: "INSERT OR REPLACE INTO oauth_codes (hash, family_id, expires_at, record) VALUES (?, ?, ?, ?)",
                arguments: [code.hash, code.familyID, code.expiresAt.timeIntervalSince1970, json])
        }
    }

    public func redeemCode(_ hash: String) async throws -> OAuthRedemption<OAuthCodeRecord>? {
        try await database.write("redeem an authorization code") { db in
            guard
                var code: OAuthCodeRecord = try Self.record(db, "SELECT record FROM oauth_codes WHERE hash = ?", [hash])
            else { return nil }
            if code.isRedeemed { return .replay(code) }
            let first = code
            code.isRedeemed = true
            try db.execute(
                sql: "UPDATE oauth_codes SET record = ? WHERE hash = ?",
                arguments: [try JSONRecordCodec.encode(code), hash])
            return .first(first)
        }
    }

    // MARK: Tokens

    public func saveToken(_ token: OAuthTokenRecord) async throws {
        let json = try JSONRecordCodec.encode(token)
        let now = now().timeIntervalSince1970
        let saved = try await database.write("save a token") { db -> Bool in
            try db.execute(sql: "DELETE FROM oauth_tokens WHERE expires_at <= ?", arguments: [now])
            try db.execute(sql: "DELETE FROM oauth_revoked_families WHERE until <= ?", arguments: [now])
            let revoked = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM oauth_revoked_families WHERE family_id = ?", arguments: [token.familyID])
            guard revoked != true else { return false }
            try db.execute(
                sql: "INSERT OR REPLACE INTO oauth_tokens (hash, family_id, expires_at, record) VALUES (?, ?, ?, ?)",
                arguments: [token.hash, token.familyID, token.expiresAt.timeIntervalSince1970, json])
            return true
        }
        guard saved else { throw OAuthFamilyRevokedError(familyID: token.familyID) }
    }

    public func token(_ hash: String) async throws -> OAuthTokenRecord? {
        try await database.read("read a token") { db in
            try Self.record(db, "SELECT record FROM oauth_tokens WHERE hash = ?", [hash])
        }
    }

    public func redeemRefreshToken(_ hash: String) async throws -> OAuthRedemption<OAuthTokenRecord>? {
        try await database.write("redeem a refresh token") { db in
            guard
                var token: OAuthTokenRecord = try Self.record(
                    db, "SELECT record FROM oauth_tokens WHERE hash = ?", [hash]),
                token.kind == .refresh
            else { return nil }
            if token.isUsed { return .replay(token) }
            let first = token
            token.isUsed = true
            try db.execute(
                sql: "UPDATE oauth_tokens SET record = ? WHERE hash = ?",
                arguments: [try JSONRecordCodec.encode(token), hash])
            return .first(first)
        }
    }

    public func revokeToken(_ hash: String) async throws {
        try await database.write("revoke a token") { db in
            try db.execute(sql: "DELETE FROM oauth_tokens WHERE hash = ?", arguments: [hash])
        }
    }

    /// Deletes every token of the family and marks its codes redeemed, in one transaction.
    public func revokeFamily(_ familyID: String) async throws {
        let until = now().addingTimeInterval(Self.revokedFamilyRetention).timeIntervalSince1970
        try await database.write("revoke a token family") { db in
            try db.execute(
                sql: """
                    INSERT INTO oauth_revoked_families (family_id, until) VALUES (?, ?)
                    ON CONFLICT (family_id) DO UPDATE SET until = max(until, excluded.until)
                    """, arguments: [familyID, until])
            try db.execute(sql: "DELETE FROM oauth_tokens WHERE family_id = ?", arguments: [familyID])
            let codes: [OAuthCodeRecord] = try String.fetchAll(
                db, sql: "SELECT record FROM oauth_codes WHERE family_id = ?", arguments: [familyID]
            ).map(JSONRecordCodec.decode)
            for var code in codes where !code.isRedeemed {
                code.isRedeemed = true
                try db.execute(
                    sql: "UPDATE oauth_codes SET record = ? WHERE hash = ?",
                    arguments: [try JSONRecordCodec.encode(code), code.hash])
            }
        }
    }

    // MARK: JSON records

    private static func record<T: Decodable & SendableMetatype>(
        _ db: Database, _ sql: String, _ arguments: StatementArguments
    ) throws
        -> T?
    {
        try String.fetchOne(db, sql: sql, arguments: arguments).map(JSONRecordCodec.decode)
    }
}
