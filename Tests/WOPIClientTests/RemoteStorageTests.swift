import Foundation
import Testing
import WOPIClient
import WOPIStorage
import WOPITestSupport

/// What the kit does not cover about ``RemoteStorage`` and ``RemoteLockStore``, against a demo deployment in-process.
@Suite("RemoteStorage and RemoteLockStore (demo deployment, in-process)")
struct RemoteStorageTests {
    /// A storage whose user "alice" is rooted in a fresh sub-folder of the demo root.
    private func withStorage(
        clock: any Clock<Duration> = ContinuousClock(),
        _ body: @Sendable (RemoteStorage, WOPIClient) async throws -> Void
    ) async throws {
        try await DemoDeployment.run { host in
            try await host.withClient { client in
                let demoRoot = try #require(try await client.enumerateAncestors(of: try await host.token()).first)
                let folder = "remote-\(UUID().uuidString.prefix(8))"
                let storage = RemoteStorage(
                    client: client,
                    roots: { user in
                        try await client.createChildContainer(in: demoRoot.resource, name: .exact("\(folder)-\(user)"))
                    }, logger: .quiet, clock: clock)
                try await body(storage, client)
            }
        }
    }

    @Test("Unicode names round-trip exactly (the kit's case without its 251-character name)")
    func unicodeNames() async throws {
        try await withStorage { storage, _ in
            let root = try await storage.rootContainer(forUser: "alice")
            let folder = try await storage.createContainer(named: "Ünïcødé folder 📁", in: root.id)
            for name in [
                "Résumé 2024.docx", "日本.docx", "Notes 📝 final 👩‍💻.docx", "two  spaces and  more.xlsx",
                String(repeating: "a", count: 250) + ".txt",
            ] {
                let file = try await storage.createFile(
                    named: name, in: folder.id, content: TestContent.text(name), overwrite: false)
                #expect(Array(file.name.unicodeScalars) == Array(name.unicodeScalars))
                #expect(try await storage.child(named: name, in: folder.id)?.id == file.id)
                #expect(try await TestContent.read(storage.readFile(file.id).body) == name)
            }
            let renamed = try await storage.rename(folder.id, to: "Ordner Größe 中文")
            #expect(renamed.name == "Ordner Größe 中文")
            #expect(try await storage.children(of: folder.id).count == 5)
        }
    }

    @Test("what WOPI cannot do is refused with the documented codes")
    func wopiLimits() async throws {
        try await withStorage { storage, _ in
            let root = try await storage.rootContainer(forUser: "alice")
            let file = try await storage.createFile(
                named: "a.txt", in: root.id, content: TestContent.text("x"), overwrite: false)
            let other = try await storage.createContainer(named: "other", in: root.id)
            await #expect(throws: StorageError.self) { try await storage.rename(file.id, to: "a.docx") }
            do {
                _ = try await storage.rename(file.id, to: "a.docx")
            } catch let error as StorageError {
                #expect(error.code == .unsupported)
            }
            // Names as users have them are fine with a host on the default rules (issue 11); what no file system or
            // Office client can hold is refused.
            for name in ["hash#.txt", ".hidden", "100% [x].txt"] {
                let created = try await storage.createFile(named: name, in: root.id, content: .empty, overwrite: false)
                #expect(created.name == name)
            }
            for name in ["colon:name.txt", "CON.txt", "a|b.txt"] {
                do {
                    _ = try await storage.createFile(named: name, in: root.id, content: .empty, overwrite: false)
                    Issue.record("\(name) should be refused")
                } catch let error as StorageError {
                    #expect(error.code == .invalidName)
                }
            }
            do {
                _ = try await storage.move(file.id, to: other.id, newName: nil, replacing: false)
                Issue.record("a cross-container move should be refused")
            } catch let error as StorageError {
                #expect(error.code == .crossContainerMove)
            }
            // A fresh RemoteStorage has not seen the item: unknown IDs are notFound until listed.
            let fresh = RemoteStorage(client: storage.client, roots: { _ in throw CancellationError() })
            await #expect(throws: StorageError.self) { try await fresh.item(file.id) }
        }
    }

    @Test("RemoteLockStore maps compare-and-swap onto Lock, RefreshLock, UnlockAndRelock and Unlock; writes use it")
    func lockStore() async throws {
        try await withStorage { storage, client in
            let root = try await storage.rootContainer(forUser: "alice")
            let file = try await storage.createFile(
                named: "locked.docx", in: root.id, content: TestContent.text("v1"), overwrite: false)
            let resource = try await storage.resource(of: file.id)
            #expect(resource.id == file.id.rawValue && resource.kind == .file)
            let locks = storage.locks
            let first = FileLock(id: "fuse-1", expiresAt: .now.addingTimeInterval(600))
            #expect(try await locks.lock(on: file.id) == nil)
            #expect(try await locks.compareAndSwap(file: file.id, expected: nil, new: first) == .swapped)
            #expect(try await client.getLock(resource) == "fuse-1")
            #expect(try await locks.lock(on: file.id) == first)
            let thief = FileLock(id: "thief", expiresAt: .now.addingTimeInterval(600))
            #expect(
                try await locks.compareAndSwap(file: file.id, expected: nil, new: thief) == .conflict(current: first))
            #expect(
                try await locks.compareAndSwap(file: file.id, expected: "wrong", new: nil) == .conflict(current: first))

            // A write while the lock is held uses it (a write lock of its own would conflict).
            let written = try await storage.writeFile(file.id, content: TestContent.text("v2"), expectedVersion: nil)
            #expect(try await TestContent.read(storage.readFile(file.id).body) == "v2")
            await #expect(throws: StorageError.self) {
                try await storage.writeFile(file.id, content: TestContent.text("v3"), expectedVersion: "stale")
            }

            let refreshed = FileLock(id: "fuse-1", expiresAt: .now.addingTimeInterval(1200))
            #expect(try await locks.compareAndSwap(file: file.id, expected: "fuse-1", new: refreshed) == .swapped)
            let second = FileLock(id: "fuse-2", expiresAt: .now.addingTimeInterval(600))
            #expect(try await locks.compareAndSwap(file: file.id, expected: "fuse-1", new: second) == .swapped)
            #expect(try await client.getLock(resource) == "fuse-2")
            // Another client holding the lock blocks this storage's writes.
            #expect(try await locks.compareAndSwap(file: file.id, expected: "fuse-2", new: nil) == .swapped)
            try await client.lock(resource, lockID: "office")
            do {
                _ = try await storage.writeFile(
                    file.id, content: TestContent.text("v4"), expectedVersion: written.version)
                Issue.record("a write to a file locked by another client should fail")
            } catch let error as StorageError {
                #expect(error.code == .io && error.message.contains("office"))
            }
            #expect(try await locks.lock(on: file.id)?.id == "office")
            try await client.unlock(resource, lockID: "office")
            #expect(try await locks.compareAndSwap(file: file.id, expected: nil, new: nil) == .swapped)
        }
    }

    @Test(
        "a write waits out another RemoteStorage's write lock, retrying on the storage's clock, and gives up after 10 s",
        .timeLimit(.minutes(5)))
    func writeLockRetries() async throws {
        let clock = TestClock()
        try await withStorage(clock: clock) { storage, client in
            let root = try await storage.rootContainer(forUser: "alice")
            let file = try await storage.createFile(
                named: "shared.txt", in: root.id, content: TestContent.text("v1"), overwrite: false)
            let resource = try await storage.resource(of: file.id)
            let otherWriter = "wopikit-remote-write-other"

            try await client.lock(resource, lockID: otherWriter)
            let waiting = Task {
                try await storage.writeFile(file.id, content: TestContent.text("v2"), expectedVersion: nil)
            }
            await clock.waitForSleepers()  // the first retry, 50 ms on
            try await client.unlock(resource, lockID: otherWriter)
            clock.advance(by: .milliseconds(50))
            _ = try await waiting.value
            #expect(try await TestContent.read(storage.readFile(file.id).body) == "v2")
            #expect(try await client.getLock(resource) == "", "the write released its own lock")

            // Retries back off to 500 ms; at 10 s on the clock the write gives up with the other lock's error.
            try await client.lock(resource, lockID: otherWriter)
            let givingUp = Task {
                try await storage.writeFile(file.id, content: TestContent.text("v3"), expectedVersion: nil)
            }
            for _ in 0..<20 {
                await clock.waitForSleepers()
                clock.advance(by: .milliseconds(500))
            }
            await #expect(throws: StorageError.self) { try await givingUp.value }
            #expect(try await TestContent.read(storage.readFile(file.id).body) == "v2")
            try await client.unlock(resource, lockID: otherWriter)
        }
    }
}
