public import Crypto
import Foundation
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
import WOPIStorage

/// The signing keys of a deployment (WOPI access tokens, OAuth sign-in forms), kept in the database so that a
/// token minted by one host is accepted by every other.
///
/// One row per key name in the `signing_keys` table of ``schema``. The first host to ask for a key creates it with
/// random bytes (`INSERT … ON CONFLICT DO NOTHING`); every host then reads the same bytes. Anyone who can read the
/// table can mint tokens: give the hosts' role alone access to this database.
public enum PostgresKeyStore {
    /// The table of the signing keys.
    public static let schema: PostgresSchema = .init(StoreTables.keys)

    /// The key named `name` (for example `token` or `oauth-form`), created with 32 random bytes the first time any host
    /// asks for it.
    public static func loadOrCreate(_ name: String, in database: PostgresPool) async throws -> SymmetricKey {
        try await database.install(schema)
        let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        try await database.execute(
            "create the signing key \(name)",
            "INSERT INTO signing_keys (name, key) VALUES (\(name), \(fresh)) ON CONFLICT (name) DO NOTHING")
        guard
            let key = try await database.values(
                "read the signing key \(name)", Data.self, "SELECT key FROM signing_keys WHERE name = \(name)"
            ).first, key.count >= 32
        else {
            throw StorageError(
                .corrupt, "The signing key \(name) is missing or shorter than 32 bytes; delete its row and start again."
            )
        }
        return SymmetricKey(data: key)
    }
}
