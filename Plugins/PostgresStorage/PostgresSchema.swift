/// A named group of schema migrations that one store keeps in a shared ``PostgresPool``.
///
/// Each store declares its own schema and installs it with ``PostgresPool/install(_:)``. Applied migrations
/// are recorded in the `wopikit_migrations` table as `"<schema name>.<identifier>"` (for example `storage.v1`).
/// Never edit or rename a migration that has shipped: append a new one.
public struct PostgresSchema: Sendable {
    /// One migration: SQL statements run in order, in the installing transaction.
    public struct Migration: Sendable {
        /// `name.identifier`, as recorded in `wopikit_migrations`.
        public let identifier: String
        /// The statements, one per element (no parameters).
        public let statements: [String]
    }

    /// The key of the advisory lock that serialises installs across processes.
    static let advisoryLockKey: Int64 = 0x574F_5049_4B49_54  // "WOPIKIT"

    /// The schema's name, the prefix of its migration identifiers.
    public let name: String
    /// The registered migrations, in order.
    public private(set) var migrations: [Migration] = []

    /// Creates an empty schema.
    ///
    /// - Parameter name: a short unique name such as `storage` or `oauth`; it may not contain `.`.
    public init(name: String) {
        precondition(!name.isEmpty && !name.contains("."), "A schema name is non-empty and has no dot.")
        self.name = name
    }

    /// Appends a migration; it runs once per database, in registration order.
    public mutating func registerMigration(_ identifier: String, statements: [String]) {
        let qualified = "\(name).\(identifier)"
        precondition(!migrations.contains { $0.identifier == qualified }, "Migration \(qualified) is registered twice.")
        migrations.append(Migration(identifier: qualified, statements: statements))
    }
}
