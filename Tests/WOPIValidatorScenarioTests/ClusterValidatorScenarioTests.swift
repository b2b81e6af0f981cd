import Foundation
import S3ObjectStore
import Testing
import WOPIClusterTestSupport
import WOPIModels

/// The validator port (`OfficeNativeClient` run) through a balancer: nginx, round-robin without stickiness, in
/// front of 3 `wopi-host serve` processes on one PostgreSQL database. Every group runs in order on one file through
/// the front, so consecutive requests of a case (Lock, then PutFile with the lock, then GetFile) reach different
/// hosts. It needs PostgreSQL and nginx (and Ceph for the bucket's run), so `make test` runs it in a process of its
/// own (`--filter`).
@Suite("WOPI validator scenarios (port, OfficeNativeClient) through nginx over hosts on PostgreSQL", .serialized)
struct ClusterValidatorScenarioTests {
    /// The groups of the unsigned run (the `ProofKeys` group needs a signing client: the signed run's).
    static let groups = ValidatorGroup.all.filter { $0.name != ValidatorGroup.proofKeys.name }

    @Test("every group passes through the balancer, and every host answered a share of the requests")
    func allGroupsThroughTheBalancer() async throws {
        let counts = try await ValidatorTarget.withCluster { target, cluster in
            await ValidatorGroup.check(Self.groups, on: target, label: "3 hosts on PostgreSQL behind nginx")
            return (await cluster.front?.requestsPerHost() ?? [:], cluster.bases)
        }
        let (perHost, bases) = counts
        let total = perHost.values.reduce(0, +)
        print("[3 hosts on PostgreSQL behind nginx] \(total) requests, by host: \(perHost)")
        #expect(total > 300, "requests through the front: \(perHost)")
        for base in bases {
            let answered = perHost[base.replacingOccurrences(of: "http://", with: ""), default: 0]
            // Round-robin: each host answers about a third of the requests.
            #expect(answered * 4 >= total, "host \(base) answered \(answered) of \(total): \(perHost)")
        }
    }

    /// Every group (`WopiCore` and the CSPP Plus ones: ecosystem, containers, sharing and file URLs, activities)
    /// through the balancer over 2 hosts on one PostgreSQL database with the file content in one Ceph bucket
    /// (`serve --database … --object-store s3://…`). The test file starts as 1 MiB, a chunk the bucket holds, so the
    /// run's first reads come from the bucket, through either host.
    @Test("every group passes through the balancer over 2 hosts on PostgreSQL and one Ceph bucket")
    func allGroupsOnObjectStorage() async throws {
        let gateway = try await CephGateway.shared.value
        let bucket = "t-validator-\(UUID().uuidString.prefix(8).lowercased())"
        let url = gateway.objectStoreURL(bucket: bucket)
        let seed = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let perHost = try await ValidatorTarget.withCluster(hosts: 2, objectStore: url, seed: seed) { target, cluster in
            await ValidatorGroup.check(Self.groups, on: target, label: "2 hosts on PostgreSQL and a Ceph bucket")
            return await cluster.front?.requestsPerHost() ?? [:]
        }
        let total = perHost.values.reduce(0, +)
        print("[2 hosts on PostgreSQL and a Ceph bucket] \(total) requests, by host: \(perHost)")
        #expect(perHost.count == 2 && perHost.values.allSatisfy { $0 * 3 >= total }, "by host: \(perHost)")
        // The seed's version is kept in the file's history, so its chunk is still in the bucket.
        let objects = try await S3ObjectStore.withObjectStore(configuration: try .init(url: url)) { store in
            var sizes: [Int64] = []
            for try await object in store.listAllObjects() { sizes.append(object.size) }
            return sizes
        }
        #expect(objects.contains(1 << 20), "the seed's chunk in the bucket: \(objects)")
    }

    /// The coauth-lock groups through the balancer, `serve --coauthoring` on every host: consecutive requests of a
    /// case (GetCoauthLock, then GetCoauthTable with its version, then RenameFile with the lock) reach different
    /// hosts, whose coauth tables, versions and WOPI/coauth exclusion come from the one database.
    @Test("the WopiCoauth groups (but the delayed one) pass through the balancer over 3 co-authoring hosts")
    func coauthGroupsThroughTheBalancer() async throws {
        let endpoints = ValidatorTarget.coauthoringEndpoints
        let coauthoring = [
            "--coauthoring", "--real-time-channel-url", endpoints.realTimeChannel, "--collaboration-service-url",
            endpoints.officeCollaborationService, "--file-geo-location-code", "EU",
        ]
        try await ValidatorTarget.withCluster(extraArguments: coauthoring) { target, _ in
            var target = target
            target.coauthoring = true
            // Every request may reach another host: content streams and sequence numbers are in the database.
            let groups = ValidatorGroup.coauthCategory.filter { $0.name != ValidatorGroup.coauthLockExpiration.name }
            await ValidatorGroup.check(groups + [.locks], on: target, label: "3 co-authoring hosts on PostgreSQL")
        }
    }

    /// The whole `WopiCoauth` category, the delayed `CoauthLockExpiration` group included, over two in-process hosts
    /// on one PostgreSQL database that take the requests in turn and share a test clock (the `serve` processes
    /// above run on the wall clock, which the group's 60 s delays would have to wait out).
    @Test("the whole WopiCoauth category, the delayed group included, over two hosts on one PostgreSQL database")
    func coauthCategoryOverTwoHostsWithATestClock() async throws {
        try await ValidatorTarget.withTwoPostgresCoauthHosts { target in
            await ValidatorGroup.check(
                ValidatorGroup.coauthCategory, on: target, label: "2 co-authoring hosts on PostgreSQL, test clock")
        }
    }
}
