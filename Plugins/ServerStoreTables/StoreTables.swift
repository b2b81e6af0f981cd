/// The SQL dialect a store's tables are written in: where SQLite and PostgreSQL spell a column type differently.
package enum SQLDialect: Sendable {
    case sqlite, postgres

    /// A floating-point column (seconds since 1970): `REAL`, `DOUBLE PRECISION`.
    package var real: String {
        switch self {
        case .sqlite: "REAL"
        case .postgres: "DOUBLE PRECISION"
        }
    }

    /// A byte-string column: `BLOB`, `BYTEA`.
    package var bytes: String {
        switch self {
        case .sqlite: "BLOB"
        case .postgres: "BYTEA"
        }
    }

    /// An increasing row number that is the table's primary key (arrival order).
    package var sequenceKey: String {
        switch self {
        case .sqlite: "INTEGER PRIMARY KEY AUTOINCREMENT"
        case .postgres: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        }
    }
}

/// A server store's tables, defined once for SQLite and PostgreSQL: the schema's name (the prefix of its
/// migration identifiers, `shares.v1`) and its migrations in order, each a list of SQL statements in a dialect.
///
/// ``StoreSchema/init(_:)`` turns it into the schema a database installs (`SQLiteSchema` in SQLiteServerStores,
/// `PostgresSchema` in PostgresServerStores); every server store of both plugins declares its tables here, so a
/// new column is written once. Never edit a migration that has shipped: append one.
package struct StoreTables: Sendable {
    /// One migration: its identifier within the schema (`v1`) and its statements in a dialect.
    package struct Migration: Sendable {
        package let identifier: String
        package let statements: @Sendable (SQLDialect) -> [String]

        package init(_ identifier: String, statements: @escaping @Sendable (SQLDialect) -> [String]) {
            self.identifier = identifier
            self.statements = statements
        }
    }

    /// The schema's name.
    package let name: String
    /// The migrations, in the order they run.
    package let migrations: [Migration]

    package init(name: String, migrations: [Migration]) {
        self.name = name
        self.migrations = migrations
    }
}

/// A database's schema type that holds a server store's ``StoreTables``: `SQLiteSchema` and `PostgresSchema`.
///
/// A store declares `public static let schema: SQLiteSchema = .init(StoreTables.shares)` and installs it on its
/// database when it opens; the conformance says how one migration's statements are registered.
package protocol StoreSchema {
    /// The dialect the schema's statements are written in.
    static var dialect: SQLDialect { get }
    /// An empty schema named `name`.
    init(name: String)
    /// Appends the migration `identifier`, which runs `statements` in order.
    mutating func registerMigration(_ identifier: String, statements: [String])
}

extension StoreSchema {
    /// The schema of `tables`, in this database's dialect.
    package init(_ tables: StoreTables) {
        self.init(name: tables.name)
        for migration in tables.migrations {
            registerMigration(migration.identifier, statements: migration.statements(Self.dialect))
        }
    }
}
