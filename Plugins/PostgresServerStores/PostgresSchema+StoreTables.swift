package import PostgresStorage
package import ServerStoreTables

/// `PostgresSchema` already registers a migration as a list of statements.
extension PostgresSchema: StoreSchema {
    package static var dialect: SQLDialect { .postgres }
}
