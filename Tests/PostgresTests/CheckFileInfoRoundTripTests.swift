import Foundation
import HTTPTypes
import NIOCore
import PostgresStorage
import Testing
import WOPIDeployment
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage

/// A CheckFileInfo on a PostgreSQL deployment costs one database round trip to authorize and describe the file
/// (the token's user, the item and the user's shares read in one statement). The audit log's record of the open
/// is written after the answer, in a batch (`AuditLog.submit`). Counted by PostgreSQL itself (`StatementCounts`),
/// for the owner, a grantee through a shared folder, and a user who may not see the file.
@Suite("PostgreSQL: CheckFileInfo round trips")
struct CheckFileInfoRoundTripTests {
    /// A deployment on a new database: `ana` owns `docs/a.docx`, `ben` may view `docs`, `cy` sees nothing.
    struct Fixture {
        let database: PostgresPool
        let deployment: WOPIDeployment
        let file: ItemID

        static func make(_ pools: TestPools) async throws -> Fixture {
            let database = try await pools.open()
            let stores = try await DeploymentStores.postgres(database)
            for id in ["ana", "ben", "cy"] {
                try await stores.users.save(
                    WOPIUser(id: id, signInName: "\(id)@example.com", displayName: id.capitalized, passwordHash: nil))
            }
            let root = try await stores.storage.rootContainer(forUser: "ana")
            let docs = try await stores.storage.createContainer(named: "docs", in: root.id)
            let file = try await stores.storage.createFile(
                named: "a.docx", in: docs.id, content: ByteStream(buffer: ByteBuffer(string: "hello")),
                overwrite: false)
            try await stores.shares.grant(
                Share(itemID: docs.id, granteeID: "ben", permission: .view, grantedBy: "ana", grantedAt: Date()))
            let deployment = try await WOPIDeployment(stores: stores, configuration: WOPIDeployment.Configuration())
            return Fixture(database: database, deployment: deployment, file: file.id)
        }

        /// CheckFileInfo as `user`, and the statements it ran.
        func checkFileInfo(as user: String) async throws -> (WOPIResponse, StatementCounts) {
            try await CheckFileInfoRoundTripTests.checkFileInfo(file, as: user, on: deployment.host, counting: database)
        }
    }

    /// CheckFileInfo of `file` as `user` on `host`, and the statements it ran on `database`.
    static func checkFileInfo(_ file: ItemID, as user: String, on host: WOPIHost, counting database: PostgresPool)
        async throws -> (WOPIResponse, StatementCounts)
    {
        let (token, _) = host.mintToken(userID: user, resource: .file(file))
        let before = try await StatementCounts.snapshot(database)
        let response = await host.handle(
            WOPIRequest(
                head: HTTPRequest(
                    method: .get, scheme: "http", authority: "wopi.test",
                    path: "/wopi/files/\(file)?access_token=\(token)")))
        return (response, try await StatementCounts.snapshot(database).since(before))
    }

    static func json(_ response: WOPIResponse) throws -> [String: Any] {
        guard case .buffer(let body) = response.body else { throw CheckFileInfoBodyMissing() }
        return try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] ?? [:]
    }
    struct CheckFileInfoBodyMissing: Error {}

    /// A CheckFileInfo or CheckContainerInfo body without the `FileUrl` ticket, which is stamped with the
    /// millisecond it was minted.
    static func comparable(_ response: WOPIResponse) throws -> NSDictionary {
        var json = try json(response)
        if let url = json["FileUrl"] as? String { json["FileUrl"] = url.prefix { $0 != "?" } }
        return NSDictionary(dictionary: json)
    }

    /// The statements that are not the audit log's record. The opens are recorded in batches of their own, which
    /// may land in any request's count (the 50 ms of `AuditGroupCommit.submittedDelay`).
    static func reads(_ statements: StatementCounts) -> Int {
        statements.calls.filter { !$0.key.hasPrefix("INSERT INTO audit_events") }.values.reduce(0, +)
    }

    @Test("the owner, a grantee through a shared folder, a stranger: one round trip each, and the same answers")
    func oneRoundTrip() async throws {
        let pools = try await TestPools.fresh()
        defer { Task { await pools.close() } }
        let fixture = try await Fixture.make(pools)

        let (owner, ownerStatements) = try await fixture.checkFileInfo(as: "ana")
        #expect(owner.status == .ok)
        let ownerInfo = try Self.json(owner)
        #expect(ownerInfo["UserCanWrite"] as? Bool == true)
        #expect(ownerInfo["UserCanRename"] as? Bool == true)
        #expect(ownerInfo["UserFriendlyName"] as? String == "Ana")
        #expect(ownerInfo["Size"] as? Int == 5)
        #expect(Self.reads(ownerStatements) == 1, "\(ownerStatements)")

        let (grantee, granteeStatements) = try await fixture.checkFileInfo(as: "ben")
        #expect(grantee.status == .ok)
        let granteeInfo = try Self.json(grantee)
        #expect(granteeInfo["UserCanWrite"] as? Bool == false, "a view share")
        #expect(granteeInfo["UserCanRename"] as? Bool == false)
        #expect(granteeInfo["UserFriendlyName"] as? String == "Ben")
        #expect(Self.reads(granteeStatements) == 1, "\(granteeStatements)")

        let (stranger, strangerStatements) = try await fixture.checkFileInfo(as: "cy")
        #expect(stranger.status == .notFound)
        #expect(Self.reads(strangerStatements) == 1, "\(strangerStatements)")
        // The opens of ana and ben are recorded, and cy's refused one is not.
        let audit = try #require(fixture.deployment.stores.audit)
        await audit.flush()
        let opens = try await audit.events(matching: AuditQuery(itemID: fixture.file.rawValue))
        #expect(opens.map(\.action) == [.open, .open] && opens.map(\.userID) == ["ana", "ben"])
    }

    @Test("every user on every item: the same answers as the stores read one by one, in one round trip")
    func sameAnswers() async throws {
        let pools = try await TestPools.fresh()
        defer { Task { await pools.close() } }
        let database = try await pools.open()
        let stores = try await DeploymentStores.postgres(database)
        for id in ["ana", "ben", "cy", "dan"] {
            try await stores.users.save(
                WOPIUser(id: id, signInName: "\(id)@example.com", displayName: id.capitalized, passwordHash: nil))
        }
        // ana's tree: docs (ben views) / sub / b.txt; c.txt (ben edits); team (cy edits, ben views) / d.txt (ben
        // edits: the widest share is on the file itself, so he may not rename it).
        let storage = stores.storage
        let root = try await storage.rootContainer(forUser: "ana")
        let docs = try await storage.createContainer(named: "docs", in: root.id)
        let sub = try await storage.createContainer(named: "sub", in: docs.id)
        let team = try await storage.createContainer(named: "team", in: root.id)
        var files: [ItemID] = []
        for (name, parent) in [("b.txt", sub.id), ("c.txt", root.id), ("d.txt", team.id)] {
            files.append(
                try await storage.createFile(
                    named: name, in: parent, content: ByteStream(buffer: ByteBuffer(string: name)), overwrite: false
                ).id)
        }
        for (item, grantee, permission) in [
            (docs.id, "ben", Permission.view), (files[1], "ben", .edit), (team.id, "cy", .edit),
            (team.id, "ben", .view),
            (files[2], "ben", .edit),
        ] {
            try await stores.shares.grant(
                Share(itemID: item, granteeID: grantee, permission: permission, grantedBy: "ana", grantedAt: Date()))
        }
        let reading = try await WOPIDeployment(stores: stores, configuration: WOPIDeployment.Configuration())
        // The same policy without its fast path: it reads the shares and walks the containers itself.
        let oneByOne = try await WOPIDeployment(
            stores: stores, configuration: WOPIDeployment.Configuration(),
            policy: WalkingPolicy(inner: stores.sharingPolicy))

        let items: [(ItemID, AccessToken.Resource, String)] =
            files.map { ($0, .file($0), "files") }
            + [root.id, docs.id, sub.id, team.id].map { ($0, .container($0), "containers") }
        for user in ["ana", "ben", "cy", "dan", "nobody"] {
            for (id, resource, kind) in items {
                for permission in [Permission.edit, .view] {
                    let (token, _) = reading.host.mintToken(userID: user, resource: resource, permission: permission)
                    let request = WOPIRequest(
                        head: HTTPRequest(
                            method: .get, scheme: "http", authority: "wopi.test",
                            path: "/wopi/\(kind)/\(id)?access_token=\(token)"))
                    let before = try await StatementCounts.snapshot(database)
                    let answer = await reading.host.handle(request)
                    let statements = try await StatementCounts.snapshot(database).since(before)
                    let expected = await oneByOne.host.handle(request)
                    let what = "\(user) on \(kind) \(id) with a \(permission) token"
                    #expect(answer.status == expected.status, "\(what)")
                    #expect(Self.reads(statements) == 1, "\(what):\n\(statements)")
                    if expected.status == .ok {
                        #expect(try Self.comparable(answer) == Self.comparable(expected), "\(what)")
                    }
                }
            }
        }
        // The other side of the comparison decides one by one: ben's CheckFileInfo of docs/sub/b.txt is the user and
        // the item (in the reader's one statement), then the shares and each container up to the root.
        let (answer, statements) = try await Self.checkFileInfo(
            files[0], as: "ben", on: oneByOne.host, counting: database)
        #expect(answer.status == .ok)
        #expect(Self.reads(statements) == 5, "\(statements)")
        // The opens are recorded before the database closes.
        await stores.audit?.flush()
    }

    @Test("a token whose user is gone is refused (401) in the same one round trip")
    func userGone() async throws {
        let pools = try await TestPools.fresh()
        defer { Task { await pools.close() } }
        let fixture = try await Fixture.make(pools)
        let (response, statements) = try await fixture.checkFileInfo(as: "nobody")
        #expect(response.status == .unauthorized)
        #expect(statements.total == 1, "\(statements)")
    }
}

/// `inner` without its decision from the reader's shares (`access(of:to:sharesOnPath:)` is the default `nil`): the
/// host asks it `access(of:to:)`, which reads the shares and walks the containers.
private struct WalkingPolicy: AccessPolicy {
    let inner: SharingAccessPolicy
    func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
        try await inner.access(of: user, to: item)
    }
    func sharedItems(with user: WOPIUser) async throws -> [StorageItem] { try await inner.sharedItems(with: user) }
}
