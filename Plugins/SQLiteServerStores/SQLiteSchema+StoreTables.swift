import GRDB
package import SQLiteStorage
package import ServerStoreTables

extension SQLiteSchema: StoreSchema {
    package static var dialect: SQLDialect { .sqlite }

    /// Registers a migration that executes `statements` in order, in the migration's transaction.
    package mutating func registerMigration(_ identifier: String, statements: [String]) {
        registerMigration(identifier) { db in
            for statement in statements { try db.execute(sql: statement) }
        }
    }
}
