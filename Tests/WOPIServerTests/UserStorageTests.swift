import Foundation
import NIOCore
import Synchronization
import Testing
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// `WOPIHost.storage(for:)`, a user's view of the storage through the door (what `wopi-host mount` mounts): every
/// change is shown to the guards and refused by a veto with nothing changed, what the policy hides is not found,
/// and an allowing door lets the storage do its work.
@Suite struct UserStorageTests {
    typealias RefuseEverything = OneDoorTests.RefuseEverything

    /// The changes a `StorageBackend` can make.
    enum Change: String, CaseIterable, Sendable {
        case createContainer, createFile, replaceFile, writeFile, rename, move, delete
    }

    /// Makes `change` on `files` to `file` (in the root) or in `folder`.
    static func make(_ change: Change, on files: UserStorage, file: FileMetadata, folder: ContainerMetadata)
        async throws
    {
        switch change {
        case .createContainer: _ = try await files.createContainer(named: "new", in: folder.id)
        case .createFile:
            _ = try await files.createFile(
                named: "new.txt", in: folder.id, content: ByteStream(buffer: ByteBuffer(string: "n")), overwrite: false)
        case .replaceFile:
            _ = try await files.createFile(
                named: file.name, in: file.parentID, content: ByteStream(buffer: ByteBuffer(string: "v2")),
                overwrite: true)
        case .writeFile:
            _ = try await files.writeFile(
                file.id, content: ByteStream(buffer: ByteBuffer(string: "v2")), expectedVersion: nil)
        case .rename: _ = try await files.rename(file.id, to: "renamed.txt")
        case .move: _ = try await files.move(file.id, to: folder.id, newName: nil, replacing: false)
        case .delete: try await files.delete(file.id)
        }
    }

    @Test(
        "a vetoing guard refuses each change of a user's view (permissionDenied), and nothing changes",
        arguments: Change.allCases)
    func aVetoRefusesEveryChange(_ change: Change) async throws {
        let refuse = RefuseEverything()
        try await TestHost.run(changeGuards: [refuse]) { wopi in
            let file = try await wopi.seedFile("plan.txt", "v1")
            let root = try await wopi.storage.rootContainer(forUser: wopi.user)
            let folder = try await wopi.storage.createContainer(named: "folder", in: root.id)
            let before = try await OneDoorTests.tree(wopi.storage, root.id)
            let files = wopi.host.storage(for: try #require(try await wopi.host.users.user(wopi.user)))
            let error = await #expect(throws: StorageError.self, "\(change) got through") {
                try await Self.make(change, on: files, file: file, folder: folder)
            }
            #expect(error?.code == .permissionDenied)
            #expect(!refuse.seen.withLock { $0 }.isEmpty, "\(change) was not shown to the guard")
            #expect(try await OneDoorTests.tree(wopi.storage, root.id) == before)
        }
    }

    /// Refuses every change with 413, as a quota does.
    struct QuotaUsedUp: ChangeGuard {
        func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
            throw ContentVeto.tooLarge("The quota is used up.")
        }
    }

    @Test func aQuotaVetoIsTooLarge() async throws {
        try await TestHost.run(changeGuards: [QuotaUsedUp()]) { wopi in
            let file = try await wopi.seedFile("plan.txt", "v1")
            let files = wopi.host.storage(for: try #require(try await wopi.host.users.user(wopi.user)))
            let error = await #expect(throws: StorageError.self) {
                try await files.writeFile(
                    file.id, content: ByteStream(buffer: ByteBuffer(string: "v2")), expectedVersion: nil)
            }
            #expect(error?.code == .tooLarge)
        }
    }

    @Test func whatThePolicyHidesIsNotFound() async throws {
        let policy = OneDoorTests.SeesNothing()
        try await TestHost.run(policy: policy) { wopi in
            let file = try await wopi.seedFile("plan.txt", "secret")
            let root = try await wopi.storage.rootContainer(forUser: wopi.user)
            let files = wopi.host.storage(for: try #require(try await wopi.host.users.user(wopi.user)))
            let reads: [(String, @Sendable () async throws -> Void)] = [
                ("item", { _ = try await files.item(file.id) }),
                ("children", { _ = try await files.children(of: root.id) }),
                ("readFile", { _ = try await files.readFile(file.id, range: nil) }),
            ]
            for (name, read) in reads {
                let error = await #expect(throws: StorageError.self, "\(name) read a hidden item") { try await read() }
                #expect(error?.code == .notFound)
            }
            await #expect(throws: StorageError.self) { _ = try await files.rootContainer(forUser: "someoneElse") }
        }
    }

    /// Lets every change through, and remembers what it was shown.
    final class Watch: ChangeGuard {
        let seen = Mutex<[ItemAction]>([])
        func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
            seen.withLock { $0.append(change.action) }
        }
    }

    @Test func anAllowingDoorLetsTheStorageWorkAndShowsEachChange() async throws {
        let watch = Watch()
        try await TestHost.run(changeGuards: [watch]) { wopi in
            let files = wopi.host.storage(for: try #require(try await wopi.host.users.user(wopi.user)))
            let root = try await files.rootContainer(forUser: wopi.user)
            let folder = try await files.createContainer(named: "folder", in: root.id)
            let file = try await files.createFile(
                named: "a.txt", in: root.id, content: ByteStream(buffer: ByteBuffer(string: "v1")), overwrite: false)
            _ = try await files.writeFile(
                file.id, content: ByteStream(buffer: ByteBuffer(string: "v2")), expectedVersion: nil)
            _ = try await files.move(file.id, to: folder.id, newName: "b.txt", replacing: false)
            #expect(
                try await OneDoorTests.tree(files, root.id).map { $0.split(separator: " ")[0] } == [
                    "folder/", "folder/b.txt",
                ])
            let content = try await files.readFile(file.id, range: nil)
            #expect(try await content.body.collect(upTo: 16) == ByteBuffer(string: "v2"))
            try await files.delete(file.id)
            #expect(try await files.children(of: folder.id).isEmpty)
        }
        #expect(
            watch.seen.withLock { $0 } == [.createChildren, .createChildren, .write, .delete, .createChildren, .delete])
    }
}
