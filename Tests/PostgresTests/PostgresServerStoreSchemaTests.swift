import PostgresServerStores
import PostgresStorage
import Testing

/// The PostgreSQL server stores build their schemas from the tables `ServerStoreTables` defines once for both
/// databases: the migrations they record are those they shipped with, in PostgreSQL's spelling (the stores'
/// conformance suites install them on a real server).
@Suite("Server store tables on PostgreSQL")
struct PostgresServerStoreSchemaTests {
    @Test("every server store keeps its shipped migration identifiers, in PostgreSQL's column types")
    func shippedSchemas() {
        let schemas = [
            PostgresUserDirectory.schema, PostgresOAuthStore.schema, PostgresShareStore.schema,
            PostgresActivityLog.schema, PostgresAuditLog.schema, PostgresSignInThrottleStore.schema,
            PostgresKeyStore.schema,
        ]
        #expect(
            schemas.flatMap { $0.migrations.map(\.identifier) } == [
                "users.v1", "oauth.v1", "oauth.v2", "shares.v1", "activities.v1", "audit.v1", "sign_in_throttle.v1",
                "keys.v1",
            ])
        let statements = schemas.flatMap { $0.migrations.flatMap(\.statements) }
        #expect(statements.count == 18)
        for statement in statements {
            for sqliteOnly in [" REAL ", "AUTOINCREMENT", "BLOB"] {
                #expect(!statement.contains(sqliteOnly), "\(statement)")
            }
        }
        #expect(statements.contains { $0.contains("sign_in_key TEXT NOT NULL") })
        #expect(statements.contains { $0.contains("seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY") })
        #expect(statements.contains { $0.contains("key BYTEA NOT NULL") })
    }
}
