public import Foundation
import JSONRecordCodec
import Logging
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
public import WOPIAuthorizationServer
import WOPIServer

/// An ``WOPIServer/OAuthStore`` in a ``PostgresStorage/PostgresPool``: OAuth clients, authorization codes and
/// tokens shared by every host of a deployment.
///
/// Codes and tokens are stored only as hashes (the store receives hashes). Each record is kept as JSON (its
/// `Codable` form) beside the columns the store queries. A redemption is one transaction that reads the record
/// `FOR UPDATE`, so a code or refresh token is used at most once even when several hosts race for it: the others
/// wait for the row and then see it used (a replay, which the server answers by revoking the family). Saving a token
/// and revoking its family take the same per-family advisory lock, so a token is never saved into a family whose
/// revocation did not see it. Expired codes and tokens are deleted when a new one is saved.
public final class PostgresOAuthStore: OAuthStore {
    /// The tables of the OAuth store: clients, authorization codes and tokens.
    public static let schema: PostgresSchema = .init(StoreTables.oauth)

    /// The database the records live in.
    public let database: PostgresPool
    private let now: @Sendable () -> Date

    private init(database: PostgresPool, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    /// Opens the store in `database`, installing its tables.
    ///
    /// - Parameter now: the clock used to delete expired records, for tests.
    public static func open(database: PostgresPool, now: @escaping @Sendable () -> Date = { Date() }) async throws
        -> PostgresOAuthStore
    {
        try await database.install(schema)
        return PostgresOAuthStore(database: database, now: now)
    }

    // MARK: Clients

    public func client(_ id: String) async throws -> OAuthClient? {
        try await database.values(
            "read the OAuth client \(id)", String.self, "SELECT record FROM oauth_clients WHERE id = \(id)"
        ).first.map(JSONRecordCodec.decode)
    }

    public func saveClient(_ client: OAuthClient) async throws {
        let json = try JSONRecordCodec.encode(client)
        try await database.execute(
            "save the OAuth client \(client.id)",
            """
            INSERT INTO oauth_clients (id, record) VALUES (\(client.id), \(json))
            ON CONFLICT (id) DO UPDATE SET record = excluded.record
            """)
    }

    public func allClients() async throws -> [OAuthClient] {
        try await database.values("list the OAuth clients", String.self, "SELECT record FROM oauth_clients ORDER BY id")
            .map(JSONRecordCodec.decode)
    }

    // MARK: Codes

    public func saveCode(_ code: OAuthCodeRecord) async throws {
        let json = try JSONRecordCodec.encode(code)
        let now = now().timeIntervalSince1970
        let logger = database.logger
        try await database.transaction("save an authorization code") { connection in
            try await connection.query("DELETE FROM oauth_codes WHERE expires_at <= \(now)", logger: logger)
            try await connection.query(
                """
                INSERT INTO oauth_codes (hash, family_id, expires_at, record)
                VALUES (\(code.hash), \(code.familyID), \(code.expiresAt.timeIntervalSince1970), \(json))
                ON CONFLICT (hash) DO UPDATE SET family_id = excluded.family_id, expires_at = excluded.expires_at,
                  record = excluded.record
                """, logger: logger)
        }
    }

    public func redeemCode(_ hash: String) async throws -> OAuthRedemption<OAuthCodeRecord>? {
        let logger = database.logger
        return try await database.transaction("redeem an authorization code") { connection in
            guard
                var code: OAuthCodeRecord = try await Self.record(
                    connection, "SELECT record FROM oauth_codes WHERE hash = \(hash) FOR UPDATE", logger: logger)
            else { return nil }
            if code.isRedeemed { return .replay(code) }
            let first = code
            code.isRedeemed = true
            try await connection.query(
                "UPDATE oauth_codes SET record = \(try JSONRecordCodec.encode(code)) WHERE hash = \(hash)",
                logger: logger)
            return .first(first)
        }
    }

    // MARK: Tokens

    public func saveToken(_ token: OAuthTokenRecord) async throws {
        let json = try JSONRecordCodec.encode(token)
        let now = now().timeIntervalSince1970
        let logger = database.logger
        let saved = try await database.transaction("save a token") { connection -> Bool in
            try await Self.lockFamily(token.familyID, on: connection, logger: logger)
            try await connection.query("DELETE FROM oauth_tokens WHERE expires_at <= \(now)", logger: logger)
            try await connection.query("DELETE FROM oauth_revoked_families WHERE until <= \(now)", logger: logger)
            let revoked = try await connection.query(
                "SELECT 1 FROM oauth_revoked_families WHERE family_id = \(token.familyID)", logger: logger
            ).collect()
            guard revoked.isEmpty else { return false }
            try await connection.query(
                """
                INSERT INTO oauth_tokens (hash, family_id, expires_at, record)
                VALUES (\(token.hash), \(token.familyID), \(token.expiresAt.timeIntervalSince1970), \(json))
                ON CONFLICT (hash) DO UPDATE SET family_id = excluded.family_id, expires_at = excluded.expires_at,
                  record = excluded.record
                """, logger: logger)
            return true
        }
        guard saved else { throw OAuthFamilyRevokedError(familyID: token.familyID) }
    }

    public func token(_ hash: String) async throws -> OAuthTokenRecord? {
        try await database.values("read a token", String.self, "SELECT record FROM oauth_tokens WHERE hash = \(hash)")
            .first.map(JSONRecordCodec.decode)
    }

    public func redeemRefreshToken(_ hash: String) async throws -> OAuthRedemption<OAuthTokenRecord>? {
        let logger = database.logger
        return try await database.transaction("redeem a refresh token") { connection in
            guard
                var token: OAuthTokenRecord = try await Self.record(
                    connection, "SELECT record FROM oauth_tokens WHERE hash = \(hash) FOR UPDATE", logger: logger),
                token.kind == .refresh
            else { return nil }
            if token.isUsed { return .replay(token) }
            let first = token
            token.isUsed = true
            try await connection.query(
                "UPDATE oauth_tokens SET record = \(try JSONRecordCodec.encode(token)) WHERE hash = \(hash)",
                logger: logger)
            return .first(first)
        }
    }

    public func revokeToken(_ hash: String) async throws {
        try await database.execute("revoke a token", "DELETE FROM oauth_tokens WHERE hash = \(hash)")
    }

    /// Deletes every token of the family and marks its codes redeemed, in one transaction.
    public func revokeFamily(_ familyID: String) async throws {
        let logger = database.logger
        let until = now().addingTimeInterval(Self.revokedFamilyRetention).timeIntervalSince1970
        try await database.transaction("revoke a token family") { connection in
            try await Self.lockFamily(familyID, on: connection, logger: logger)
            try await connection.query(
                """
                INSERT INTO oauth_revoked_families (family_id, until) VALUES (\(familyID), \(until))
                ON CONFLICT (family_id) DO UPDATE SET until = GREATEST(oauth_revoked_families.until, excluded.until)
                """, logger: logger)
            try await connection.query("DELETE FROM oauth_tokens WHERE family_id = \(familyID)", logger: logger)
            var codes: [OAuthCodeRecord] = []
            for try await json in try await connection.query(
                "SELECT record FROM oauth_codes WHERE family_id = \(familyID) FOR UPDATE", logger: logger
            ).decode(String.self) {
                codes.append(try JSONRecordCodec.decode(json))
            }
            for var code in codes where !code.isRedeemed {
                code.isRedeemed = true
                try await connection.query(
                    "UPDATE oauth_codes SET record = \(try JSONRecordCodec.encode(code)) WHERE hash = \(code.hash)",
                    logger: logger)
            }
        }
    }

    /// Serializes the transactions that save into or revoke one family (until they end), across hosts: a save that
    /// did not see the revocation's mark commits before the revocation deletes the family's tokens.
    private static func lockFamily(_ familyID: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(familyID), 0))", logger: logger)
    }

    // MARK: JSON records

    private static func record<T: Decodable & SendableMetatype>(
        _ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger
    ) async throws -> T? {
        for try await json in try await connection.query(query, logger: logger).decode(String.self) {
            return try JSONRecordCodec.decode(json)
        }
        return nil
    }
}
