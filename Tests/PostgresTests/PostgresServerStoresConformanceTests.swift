import PostgresServerStores
import PostgresStorage
import Testing
import WOPIAuthorizationServer
import WOPIClusterTestSupport
import WOPIServer
import WOPIServerConformance
import WOPIStorageConformance

/// The server-store kits on PostgreSQL; every `open` is a new pool, as a second host would be.
@Suite("PostgreSQL server stores conformance")
struct PostgresServerStoresConformanceTests {
    @Test(arguments: UserDirectoryConformance.cases)
    func users(_ kit: ConformanceCase<any UserDirectory>) async throws {
        let pools = try await TestPools.fresh()
        try await kit.run { try await PostgresUserDirectory.open(database: try await pools.open()) }
        await pools.close()
    }

    @Test(arguments: OAuthStoreConformance.cases)
    func oauth(_ kit: ConformanceCase<any OAuthStore>) async throws {
        let pools = try await TestPools.fresh()
        try await kit.run { try await PostgresOAuthStore.open(database: try await pools.open()) }
        await pools.close()
    }

    @Test(arguments: ShareStoreConformance.cases)
    func shares(_ kit: ConformanceCase<any ShareStore>) async throws {
        let pools = try await TestPools.fresh()
        try await kit.run { try await PostgresShareStore.open(database: try await pools.open()) }
        await pools.close()
    }

    @Test(arguments: ShareStoreConformance.activityCases)
    func activities(_ kit: ConformanceCase<any ActivityLog>) async throws {
        let pools = try await TestPools.fresh()
        try await kit.run { try await PostgresActivityLog.open(database: try await pools.open()) }
        await pools.close()
    }

    @Test(arguments: AuditLogConformance.cases)
    func audit(_ kit: ConformanceCase<any AuditLog>) async throws {
        let pools = try await TestPools.fresh()
        try await kit.run { try await PostgresAuditLog.open(database: try await pools.open()) }
        await pools.close()
    }

    @Test(arguments: SignInThrottleStoreConformance.cases)
    func signInThrottle(_ kit: ConformanceCase<any SignInThrottleStore>) async throws {
        let pools = try await TestPools.fresh()
        try await kit.run { try await PostgresSignInThrottleStore.open(database: try await pools.open()) }
        await pools.close()
    }

    @Test(arguments: ContentStreamStoreConformance.cases)
    func contentStreams(_ kit: ConformanceCase<any ContentStreamStore>) async throws {
        let pools = try await TestPools.fresh()
        try await kit.run { try await PostgresContentStreamStore.open(database: try await pools.open()) }
        await pools.close()
    }

    @Test(arguments: UploadSessionStoreConformance.cases)
    func uploadSessions(_ kit: ConformanceCase<any UploadSessionStore>) async throws {
        let pools = try await TestPools.fresh()
        try await kit.run { try await PostgresUploadSessionStore.open(database: try await pools.open()) }
        await pools.close()
    }

    @Test("every host reads the signing key the first one created")
    func sharedKeys() async throws {
        let pools = try await TestPools.fresh()
        async let first = PostgresKeyStore.loadOrCreate("token", in: try await pools.open())
        async let second = PostgresKeyStore.loadOrCreate("token", in: try await pools.open())
        let keys = try await [first, second]
        #expect(keys[0] == keys[1])
        #expect(try await PostgresKeyStore.loadOrCreate("oauth-form", in: try await pools.open()) != keys[0])
        await pools.close()
    }
}
