public import GRDB

/// A named group of schema migrations that one store keeps in a shared ``SQLiteDatabase``.
///
/// Each store that lives in the database file (storage, locks, and later OAuth clients, users or sessions)
/// declares its own schema and installs it with ``SQLiteDatabase/install(_:)``. Migrations are recorded in
/// GRDB's `grdb_migrations` table as `"<schema name>.<identifier>"` (for example `storage.v1`), so schemas of
/// different stores never collide, and a later release can append `v2`, `v3`, … to open an older file.
///
/// Never edit or rename a migration that has shipped: append a new one.
///
/// ```swift
/// var schema = SQLiteSchema(name: "oauth")
/// schema.registerMigration("v1") { db in
///     try db.execute(sql: "CREATE TABLE oauth_clients (id TEXT PRIMARY KEY NOT NULL, secret_hash BLOB NOT NULL)")
/// }
/// try database.install(schema)
/// ```
public struct SQLiteSchema: Sendable {
    /// The schema's name, the prefix of its migration identifiers.
    public let name: String
    private var migrator = DatabaseMigrator()
    private var identifiers: [String] = []

    /// Creates an empty schema.
    ///
    /// - Parameter name: a short unique name such as `storage` or `oauth`; it may not contain `.`.
    public init(name: String) {
        precondition(!name.isEmpty && !name.contains("."), "A schema name is non-empty and has no dot.")
        self.name = name
    }

    /// The identifiers of the registered migrations as stored in the database (`name.identifier`), in order.
    public var migrationIdentifiers: [String] { identifiers }

    /// Appends a migration; it runs once per database file, in its own transaction, in registration order.
    ///
    /// - Parameters:
    ///   - identifier: a name unique within this schema, such as `v1`.
    ///   - migrate: the schema changes to apply.
    public mutating func registerMigration(
        _ identifier: String, migrate: @escaping @Sendable (Database) throws -> Void
    ) {
        let qualified = "\(name).\(identifier)"
        precondition(!identifiers.contains(qualified), "Migration \(qualified) is registered twice.")
        identifiers.append(qualified)
        migrator.registerMigration(qualified, migrate: migrate)
    }

    /// Applies the migrations that the database has not seen yet.
    func apply(to writer: some DatabaseWriter) throws {
        try migrator.migrate(writer)
    }
}
