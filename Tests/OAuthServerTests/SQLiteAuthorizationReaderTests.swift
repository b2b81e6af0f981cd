import Foundation
import NIOCore
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIDeployment
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// `SQLiteAuthorizationReader` reads in one statement what the stores answer one by one: the user, the item, and the
/// user's shares on the item's path.
@Suite struct SQLiteAuthorizationReaderTests {
    /// Alice's root holds `Projects/Plans/plan.docx`; Bob has a share on `Projects` (view) and on `plan.docx` (edit),
    /// Carol one on `Plans` only, and Dave is not a user.
    struct World {
        let folder: TemporaryDirectory
        let database: SQLiteDatabase
        let storage: SQLiteStorage
        let users: SQLiteUserDirectory
        let shares: SQLiteShareStore
        let reader: SQLiteAuthorizationReader
        let projects: ContainerMetadata
        let plans: ContainerMetadata
        let plan: FileMetadata
        let bobsRoot: ContainerMetadata

        init() async throws {
            folder = try TemporaryDirectory()
            database = try SQLiteDatabase(path: folder.appending("wopi.sqlite").path)
            storage = try SQLiteStorage(database: database)
            users = try SQLiteUserDirectory(database: database)
            shares = try SQLiteShareStore(database: database)
            reader = SQLiteAuthorizationReader(database: database)
            for (id, name) in [("alice", "Alice A"), ("bob", "Bob B"), ("carol", "Carol C")] {
                try await users.save(
                    WOPIUser(
                        id: id, signInName: id, displayName: name, passwordHash: "hash of \(id)",
                        userInfo: "info of \(id)"))
            }
            let root = try await storage.rootContainer(forUser: "alice")
            projects = try await storage.createContainer(named: "Projects", in: root.id)
            plans = try await storage.createContainer(named: "Plans", in: projects.id)
            plan = try await storage.createFile(
                named: "plan.docx", in: plans.id, content: ByteStream(buffer: ByteBuffer(string: "plan")),
                overwrite: false)
            bobsRoot = try await storage.rootContainer(forUser: "bob")
            let at = Date(timeIntervalSince1970: 1_800_000_000)
            for (item, grantee, permission) in [
                (projects.id, "bob", Permission.view), (plan.id, "bob", .edit), (plans.id, "carol", .edit),
            ] {
                try await shares.grant(
                    Share(itemID: item, granteeID: grantee, permission: permission, grantedBy: "alice", grantedAt: at))
            }
        }

        func close() throws {
            try database.close()
            folder.remove()
        }
    }

    @Test func anOwnerGetsTheUserAndTheItemAndNoShares() async throws {
        let world = try await World()
        defer { try? world.close() }
        let read = try await world.reader.read(user: "alice", item: world.plan.id)
        #expect(read.user == (try await world.users.user("alice")))
        #expect(read.item == (try await world.storage.item(world.plan.id)))
        #expect(read.sharesOnPath.isEmpty)
    }

    @Test func aGranteeGetsItsSharesOnThePathAndOnlyThose() async throws {
        let world = try await World()
        defer { try? world.close() }
        let bob = try await world.reader.read(user: "bob", item: world.plan.id)
        #expect(bob.user?.displayName == "Bob B")
        #expect(bob.item == (try await world.storage.item(world.plan.id)))
        #expect(bob.sharesOnPath == [world.projects.id: .view, world.plan.id: .edit])
        let carol = try await world.reader.read(user: "carol", item: world.plan.id)
        #expect(carol.sharesOnPath == [world.plans.id: .edit])
        let above = try await world.reader.read(user: "carol", item: world.projects.id)
        #expect(above.sharesOnPath.isEmpty, "a share below the item gives nothing on it")
        let own = try await world.reader.read(user: "bob", item: world.bobsRoot.id)
        #expect(own.item == .container(world.bobsRoot))
        #expect(own.sharesOnPath.isEmpty)
    }

    @Test func aMissingUserOrItemIsNil() async throws {
        let world = try await World()
        defer { try? world.close() }
        let dave = try await world.reader.read(user: "dave", item: world.plan.id)
        #expect(dave.user == nil)
        #expect(dave.item == (try await world.storage.item(world.plan.id)))
        #expect(dave.sharesOnPath.isEmpty)
        let missing = try await world.reader.read(user: "bob", item: ItemID.random())
        #expect(missing.user?.id == "bob")
        #expect(missing.item == nil)
        #expect(missing.sharesOnPath.isEmpty)
    }

    @Test func aDeploymentReadsInOneStatementOnlyWhenItsStoresShareOneDatabase() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let stores = try DeploymentStores.sqlite(directory: folder.url)
        let database = try #require(stores.storage as? SQLiteStorage).database
        defer { try? database.close() }
        #expect(stores.authorizationReader is SQLiteAuthorizationReader)
        let other = try SQLiteDatabase(path: folder.appending("other.sqlite").path)
        defer { try? other.close() }
        let mixed: [(inout DeploymentStores) throws -> Void] = [
            { $0.users = try SQLiteUserDirectory(database: other) },
            { $0.storage = InMemoryStorage() },
            { $0.shares = InMemoryShareStore() },
        ]
        for replace in mixed {
            var changed = stores
            try replace(&changed)
            #expect(changed.authorizationReader == nil)
        }
    }
}
