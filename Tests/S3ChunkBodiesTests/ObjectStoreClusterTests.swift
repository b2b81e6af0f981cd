import AsyncHTTPClient
import ChunkedVersionStore
import Foundation
import NIOCore
import NIOHTTP1
import PostgresNIO
import PostgresStorage
import S3ObjectStore
import Testing
import WOPIClusterTestSupport
import WOPIStorage
import WOPITestSupport

/// Two `wopi-host serve --database … --object-store …` processes on one PostgreSQL database and one Ceph bucket.
@Suite("Two hosts on PostgreSQL and a Ceph bucket")
struct ObjectStoreClusterTests {
    /// A file written through one host reads back through the other, its content in the bucket and not in the
    /// database; a host killed mid-PutFile loses nothing, and garbage collection then leaves exactly the objects
    /// the kept versions list.
    @Test func twoHostsOneBucket() async throws {
        let gateway = try await CephGateway.shared.value
        let bucket = "t-cluster-\(UUID().uuidString.prefix(8).lowercased())"
        let cluster = try await HostCluster.start(2, objectStore: gateway.objectStoreURL(bucket: bucket))
        let watcher = try await PostgresPool.open(
            try PostgresPool.Configuration(url: cluster.databaseURL), logger: PostgresServer.logger)
        let configuration = try S3ObjectStore.Configuration(url: gateway.objectStoreURL(bucket: bucket))
        do {
            try await S3ObjectStore.withObjectStore(configuration: configuration) { store in
                try await exercise(cluster, watcher: watcher, store: store)
            }
        } catch {
            await watcher.shutdown()
            await cluster.stop()
            throw error
        }
        await watcher.shutdown()
        await cluster.stop()
    }

    private func exercise(_ cluster: HostCluster, watcher: PostgresPool, store: S3ObjectStore) async throws {
        for base in cluster.bases {
            let ready = try await TestHTTP.send(.GET, base + "/readyz")
            #expect(ready.status == 200, "database, data folder and bucket: \(ready.text)")
        }
        let imported = ChunkBodyLayoutTests.bytes(3 << 20, seed: 1)
        try await cluster.importFile("shared.bin", content: imported)
        let target = try await cluster.token(for: "shared.bin")
        let read = try await TestHTTP.send(
            .GET, cluster.url(target.path, token: target.token, host: 1, suffix: "/contents"))
        #expect(read.bytes == imported, "imported through the command, read through the second host")

        let lock = try await TestHTTP.send(
            .POST, cluster.url(target.path, token: target.token, host: 0),
            headers: [("X-WOPI-Override", "LOCK"), ("X-WOPI-Lock", "L1")])
        try #require(lock.status == 200)
        let saved = ChunkBodyLayoutTests.bytes(20 << 20, seed: 2)
        let put = try await cluster.putFile(target, host: 0, body: HeldBody(saved, holdAfter: nil))
        #expect(put == 200)
        let reread = try await TestHTTP.send(
            .GET, cluster.url(target.path, token: target.token, host: 1, suffix: "/contents"))
        #expect(reread.bytes == saved, "saved through the first host, read through the second")
        let pieceBytes =
            try await watcher.values(
                "sum piece bytes", Int64.self, "SELECT coalesce(sum(length(data)), 0)::int8 FROM chunk_pieces"
            ).first ?? -1
        #expect(pieceBytes < 16 << 10, "the database holds only the demo's small documents, none of the 23 MiB")
        let stored = try await ObjectStoreBackends.objects(store).values.reduce(0, +)
        #expect(stored == Int64(imported.count + saved.count), "the bucket holds both versions")

        // A PutFile of 20 MiB whose body stops after 12 MiB, and whose host is killed once its write started.
        let held = Task {
            try await cluster.putFile(
                target, host: 0, body: HeldBody(ChunkBodyLayoutTests.bytes(20 << 20, seed: 3), holdAfter: 12 << 20))
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while try await watcher.values(
            "count writes", Int64.self, "SELECT count(*)::int8 FROM file_versions WHERE state = 'writing'"
        ).first ?? 0 == 0 {
            try #require(ContinuousClock.now < deadline, "the held upload never reached the database")
            try await Task.sleep(for: .milliseconds(20))
        }
        await cluster.hosts[0].stop(signal: SIGKILL)
        #expect(try await held.value != 200)
        let after = try await TestHTTP.send(
            .GET, cluster.url(target.path, token: target.token, host: 1, suffix: "/contents"))
        #expect(after.bytes == saved, "the killed save left the acknowledged version whole")
        let heldLock = try await TestHTTP.send(
            .POST, cluster.url(target.path, token: target.token, host: 1), headers: [("X-WOPI-Override", "GET_LOCK")])
        #expect(heldLock.header("X-WOPI-Lock") == "L1")

        // Garbage collection two hours on (past the abandoned write's expiry and the grace period).
        let later: @Sendable () -> Date = { Date().addingTimeInterval(7200) }
        let storage = try await PostgresStorage.open(
            database: watcher, configuration: .init(now: later),
            chunkBodies: ObjectStoreBackends.bodies(store, now: later))
        let report = try await storage.collectGarbage()
        #expect(report.abandonedWrites == 1)
        let listed = try await watcher.values(
            "list chunk bodies", String.self,
            "SELECT 'chunks/' || staged_version_id || '/' || staged_index FROM chunks WHERE in_file = 1")
        #expect(Set(try await ObjectStoreBackends.objects(store).keys) == Set(listed))
        #expect(listed.count == 2, "the imported version and the saved one")
        let final = try await TestHTTP.send(
            .GET, cluster.url(target.path, token: target.token, host: 1, suffix: "/contents"))
        #expect(final.bytes == saved)
    }
}
