import Foundation
import NIOCore
import WOPIStorage

/// The conformance kit for ``WOPIStorage/VersionedStorage``: version history, restore and retention, as runnable
/// cases (``VersionConformanceCase``), on top of ``StorageConformance``'s.
public enum VersionConformance {
    /// Every version conformance case.
    public static var cases: [VersionConformanceCase] {
        [
            .init(
                "every save is a version, listed current first with its size, digest, user, path and flags",
                retention: VersionRetention(), listing),
            .init(
                "an earlier version reads back whole and by range, on this host and another",
                retention: VersionRetention(), reading),
            .init(
                "a restore saves the old content as a new current version and changes no other version",
                retention: VersionRetention(), restoring),
            .init(
                "a deleted version is gone from the list and from reads; the current version cannot be deleted",
                retention: VersionRetention(), deleting),
            .init(
                "with keep-last-10, the 11th save drops the oldest version, and a kept version stays beside them",
                retention: VersionRetention(keepLast: 10), keepingLast),
            .init(
                "with keep-for, garbage collection drops the versions older than the limit on the store's clock",
                retention: VersionRetention(keepFor: 100), keepingFor),
            .init(
                "20 autosaves by one user within the grace period leave one version; explicit and exit saves stay",
                retention: VersionRetention(autosaveGracePeriod: 60), coalescing),
            .init(
                "versions follow their file through a rename and go with it when it is deleted",
                retention: VersionRetention(), followingTheFile),
            .init(
                "a reader of an earlier version reads it whole though it is deleted and garbage is collected",
                retention: VersionRetention(), leasedReader),
            .init(
                "a user's stored bytes count every kept version, shared content at most once, and drop what is deleted",
                retention: VersionRetention(), counting),
        ]
    }

    static let alice = SaveContext(userID: "alice", path: .putFile)

    static func listing(_ setup: VersionConformanceCase.Setup) async throws {
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        let created = try await save(SaveContext(userID: "alice", path: .create)) {
            try await storage.createFile(named: "a.txt", in: root.id, content: Content.text("one"), overwrite: false)
        }
        setup.clock.advance(by: 5)
        let second = try await save(SaveContext(userID: "bob", path: .putFile, isAutosave: true)) {
            try await storage.writeFile(created.id, content: Content.text("second"), expectedVersion: created.version)
        }
        setup.clock.advance(by: 5)
        let third = try await save(SaveContext(userID: "carol", path: .uploadSession, isExitSave: true)) {
            try await storage.writeFile(created.id, content: Content.text("three!!"), expectedVersion: second.version)
        }
        let versions = try await Check.step("versions(of:)") { try await setup.peer.versions(of: created.id) }
        try Check.expectEqual(versions.map(\.id), [third, second, created].map(\.version), "the listed versions")
        try Check.expectEqual(versions.map(\.isCurrent), [true, false, false], "which version is current")
        try Check.expectEqual(versions.map(\.size), [7, 6, 3], "the sizes of the versions")
        try Check.expectEqual(
            versions.map(\.sha256), [third, second, created].map(\.sha256), "the digests of the versions")
        try Check.expectEqual(versions.map(\.save.userID), ["carol", "bob", "alice"], "who saved each version")
        try Check.expectEqual(
            versions.map(\.save.path), [.uploadSession, .putFile, .create], "the path of each version")
        try Check.expectEqual(versions.map(\.save.isAutosave), [false, true, false], "the autosave flags")
        try Check.expectEqual(versions.map(\.save.isExitSave), [true, false, false], "the exit-save flags")
        try Check.expect(
            versions[1].savedAt.timeIntervalSince(versions[2].savedAt) >= 4, "save times follow the store's clock")
        try Check.expect(!versions.contains(where: \.isKept), "no version is kept until a user keeps it")
        try await Check.expectThrows(anyOf: [.notAFile, .notFound], "versions(of:) of a container") {
            try await storage.versions(of: root.id)
        }
    }

    static func reading(_ setup: VersionConformanceCase.Setup) async throws {
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        let first = try await save(alice) {
            try await storage.createFile(
                named: "r.txt", in: root.id, content: Content.text("hello, old world"), overwrite: false)
        }
        _ = try await save(alice) {
            try await storage.writeFile(first.id, content: Content.text("new"), expectedVersion: first.version)
        }
        for backend in [storage, setup.peer] {
            let whole = try await Check.step("readVersion of the first version") {
                try await backend.readVersion(first.version, of: first.id, range: nil)
            }
            try Check.expectEqual(whole.metadata.version, first.version, "the version read")
            try Check.expectEqual(whole.metadata.size, 16, "the size of the version read")
            try Check.expectEqual(try await text(whole), "hello, old world", "the bytes of the first version")
            let part = try await backend.readVersion(first.version, of: first.id, range: 7..<10)
            try Check.expectEqual(try await text(part), "old", "bytes 7..<10 of the first version")
        }
        try Check.expectEqual(try await Content.read(storage, first.id), "new", "the current content")
        try await Check.expectThrows(code: .notFound, "readVersion of a version never saved") {
            try await storage.readVersion("no-such-version", of: first.id, range: nil)
        }
    }

    static func restoring(_ setup: VersionConformanceCase.Setup) async throws {
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        let first = try await save(alice) {
            try await storage.createFile(named: "s.txt", in: root.id, content: Content.text("draft"), overwrite: false)
        }
        let second = try await save(alice) {
            try await storage.writeFile(first.id, content: Content.text("final"), expectedVersion: first.version)
        }
        try await Check.expectThrows(code: .versionMismatch, "a restore expecting a version that is not current") {
            try await SaveContext.$current.withValue(SaveContext(userID: "bob", path: .putFile)) {
                try await setup.peer.restoreVersion(first.version, of: first.id, expectedVersion: first.version)
            }
        }
        let restored = try await Check.step("restoreVersion of the first version") {
            try await save(SaveContext(userID: "bob", path: .putFile)) {
                try await setup.peer.restoreVersion(first.version, of: first.id, expectedVersion: second.version)
            }
        }
        try Check.expect(
            ![first.version, second.version].contains(restored.version), "a restore makes a new version")
        try Check.expectEqual(try await Content.read(storage, first.id), "draft", "the content after the restore")
        let versions = try await storage.versions(of: first.id)
        try Check.expectEqual(
            versions.map(\.id), [restored.version, second.version, first.version], "the versions after the restore")
        try Check.expectEqual(versions[0].save.path, .restore, "the path of the restored version")
        try Check.expectEqual(versions[0].save.userID, "bob", "who restored")
        try Check.expectEqual(
            try await text(try await storage.readVersion(second.version, of: first.id, range: nil)), "final",
            "the version the restore replaced")
    }

    static func deleting(_ setup: VersionConformanceCase.Setup) async throws {
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        var saved = [
            try await save(alice) {
                try await storage.createFile(named: "d.txt", in: root.id, content: Content.text("0"), overwrite: false)
            }
        ]
        for text in ["1", "2"] {
            let last = saved[saved.count - 1]
            saved.append(
                try await save(alice) {
                    try await storage.writeFile(last.id, content: Content.text(text), expectedVersion: last.version)
                })
        }
        let id = saved[0].id
        try await Check.step("deleteVersion of the middle version") {
            try await setup.peer.deleteVersion(saved[1].version, of: id)
        }
        try Check.expectEqual(
            try await storage.versions(of: id).map(\.id), [saved[2].version, saved[0].version],
            "the versions after a delete")
        try await Check.expectThrows(code: .notFound, "readVersion of a deleted version") {
            try await storage.readVersion(saved[1].version, of: id, range: nil)
        }
        try await Check.expectThrows(code: .notFound, "deleteVersion of a deleted version") {
            try await storage.deleteVersion(saved[1].version, of: id)
        }
        try await Check.expectThrows(code: .unsupported, "deleteVersion of the current version") {
            try await storage.deleteVersion(saved[2].version, of: id)
        }
        try await storage.collectGarbage()
        try Check.expectEqual(
            try await text(try await storage.readVersion(saved[0].version, of: id, range: nil)), "0",
            "the version no one deleted, after garbage collection")
    }

    static func keepingLast(_ setup: VersionConformanceCase.Setup) async throws {
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        var saved = [
            try await save(alice) {
                try await storage.createFile(named: "k.txt", in: root.id, content: Content.text("0"), overwrite: false)
            }
        ]
        let id = saved[0].id
        let kept = try await Check.step("keepVersion of the first version") {
            try await setup.peer.keepVersion(saved[0].version, of: id, true)
        }
        try Check.expect(kept.isKept, "keepVersion returns the version kept")
        for text in (1...10).map(String.init) {
            let last = saved[saved.count - 1]
            saved.append(
                try await save(alice) {
                    try await storage.writeFile(id, content: Content.text(text), expectedVersion: last.version)
                })
        }
        try Check.expectEqual(
            try await storage.versions(of: id).map(\.id), saved.reversed().map(\.version),
            "ten versions not kept, beside the kept one")
        let tenth = saved[10]
        saved.append(
            try await save(alice) {
                try await storage.writeFile(id, content: Content.text("11"), expectedVersion: tenth.version)
            })
        try await storage.collectGarbage()
        try Check.expectEqual(
            try await storage.versions(of: id).map(\.id), (saved[2...].reversed() + [saved[0]]).map(\.version),
            "after the 11th save: the last ten, and the kept one")
        try await Check.expectThrows(code: .notFound, "readVersion of the version retention dropped") {
            try await storage.readVersion(saved[1].version, of: id, range: nil)
        }
        try Check.expectEqual(
            try await text(try await setup.peer.readVersion(saved[0].version, of: id, range: nil)), "0",
            "the kept version")
        try await storage.keepVersion(saved[0].version, of: id, false)
        try await storage.collectGarbage()
        try Check.expectEqual(
            try await storage.versions(of: id).map(\.id), saved[2...].reversed().map(\.version),
            "once no longer kept, the first version goes")
    }

    static func keepingFor(_ setup: VersionConformanceCase.Setup) async throws {
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        let first = try await save(alice) {
            try await storage.createFile(named: "t.txt", in: root.id, content: Content.text("a"), overwrite: false)
        }
        setup.clock.advance(by: 50)
        let second = try await save(alice) {
            try await storage.writeFile(first.id, content: Content.text("b"), expectedVersion: first.version)
        }
        setup.clock.advance(by: 40)
        let third = try await save(alice) {
            try await storage.writeFile(first.id, content: Content.text("c"), expectedVersion: second.version)
        }
        try await storage.collectGarbage()
        try Check.expectEqual(
            try await storage.versions(of: first.id).map(\.id), [third, second, first].map(\.version),
            "every version is younger than the limit")
        setup.clock.advance(by: 20)
        try await setup.peer.collectGarbage()
        try Check.expectEqual(
            try await storage.versions(of: first.id).map(\.id), [third, second].map(\.version),
            "110 s after the first save, garbage collection drops it")
        setup.clock.advance(by: 1_000)
        try await storage.collectGarbage()
        try Check.expectEqual(
            try await storage.versions(of: first.id).map(\.id), [third.version], "the current version always stays")
    }

    static func coalescing(_ setup: VersionConformanceCase.Setup) async throws {
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        let autosave = SaveContext(userID: "alice", path: .putFile, isAutosave: true)
        var last = try await save(SaveContext(userID: "alice", path: .create)) {
            try await storage.createFile(named: "c.txt", in: root.id, content: Content.text("0"), overwrite: false)
        }
        let explicit = last
        for index in 1...20 {
            setup.clock.advance(by: 30)
            let previous = last
            last = try await save(autosave) {
                try await storage.writeFile(
                    previous.id, content: Content.text("auto \(index)"), expectedVersion: previous.version)
            }
        }
        let lastAutosave = last
        setup.clock.advance(by: 10)
        let exit = try await save(SaveContext(userID: "alice", path: .putFile, isAutosave: true, isExitSave: true)) {
            try await storage.writeFile(last.id, content: Content.text("exit"), expectedVersion: lastAutosave.version)
        }
        try Check.expectEqual(
            try await storage.versions(of: explicit.id).map(\.id), [exit, lastAutosave, explicit].map(\.version),
            "20 autosaves 30 s apart within a 60 s grace period, between an explicit save and an exit save")
        try Check.expectEqual(
            try await text(try await storage.readVersion(lastAutosave.version, of: explicit.id, range: nil)),
            "auto 20", "the autosave kept is the last one")
        // After the exit save an autosave makes a version of its own; another user's autosave does too.
        setup.clock.advance(by: 10)
        let afterExit = try await save(autosave) {
            try await storage.writeFile(exit.id, content: Content.text("again"), expectedVersion: exit.version)
        }
        setup.clock.advance(by: 10)
        let bobs = try await save(SaveContext(userID: "bob", path: .putFile, isAutosave: true)) {
            try await storage.writeFile(exit.id, content: Content.text("bob"), expectedVersion: afterExit.version)
        }
        setup.clock.advance(by: 120)
        let late = try await save(SaveContext(userID: "bob", path: .putFile, isAutosave: true)) {
            try await storage.writeFile(exit.id, content: Content.text("late"), expectedVersion: bobs.version)
        }
        try Check.expectEqual(
            try await storage.versions(of: explicit.id).map(\.id),
            [late, bobs, afterExit, exit, lastAutosave, explicit].map(\.version),
            "autosaves after an exit save, by another user, or past the grace period")
    }

    static func followingTheFile(_ setup: VersionConformanceCase.Setup) async throws {
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        let first = try await save(alice) {
            try await storage.createFile(named: "f.txt", in: root.id, content: Content.text("a"), overwrite: false)
        }
        let second = try await save(alice) {
            try await storage.writeFile(first.id, content: Content.text("b"), expectedVersion: first.version)
        }
        let folder = try await StorageConformance.makeContainer(storage, "folder", in: root.id)
        _ = try await Check.step("move into a folder, renamed") {
            try await storage.move(first.id, to: folder.id, newName: "g.txt", replacing: false)
        }
        try Check.expectEqual(
            try await storage.versions(of: first.id).map(\.id), [second, first].map(\.version),
            "the versions of a moved file")
        try await storage.delete(first.id)
        try await storage.collectGarbage()
        try await Check.expectThrows(code: .notFound, "versions(of:) of a deleted file") {
            try await setup.peer.versions(of: first.id)
        }
        try await Check.expectThrows(code: .notFound, "readVersion of a deleted file's earlier version") {
            try await setup.peer.readVersion(first.version, of: first.id, range: nil)
        }
        let again = try await save(alice) {
            try await storage.createFile(named: "f.txt", in: root.id, content: Content.text("c"), overwrite: false)
        }
        try Check.expectEqual(
            try await storage.versions(of: again.id).map(\.id), [again.version],
            "a new file of the same name starts a history of its own")
    }

    static func leasedReader(_ setup: VersionConformanceCase.Setup) async throws {
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        // Larger than what a backend reads in one go, so the reader reads after the deletion.
        let size = 3 << 20
        let first = try await save(alice) {
            try await storage.createFile(
                named: "big.bin", in: root.id, content: Content.pattern(seed: 3, size: size), overwrite: false)
        }
        let second = try await save(alice) {
            try await storage.writeFile(first.id, content: Content.text("small"), expectedVersion: first.version)
        }
        let reading = try await Check.step("readVersion of the large version") {
            try await storage.readVersion(first.version, of: first.id, range: nil)
        }
        var iterator = reading.body.makeAsyncIterator()
        let start = try Check.require(try await iterator.next(), "the first bytes of the version")
        try await setup.peer.deleteVersion(first.version, of: first.id)
        try await setup.peer.collectGarbage()
        var digest = ContentDigest()
        digest.update(start)
        var count = start.readableBytes
        while let buffer = try await iterator.next() {
            digest.update(buffer)
            count += buffer.readableBytes
        }
        try Check.expectEqual(count, size, "the bytes read of the deleted version")
        try Check.expectEqual(
            digest.finalize(), Content.patternSHA256(seed: 3, size: size), "the digest of the deleted version")
        try Check.expectEqual(
            try await storage.versions(of: first.id).map(\.id), [second.version], "the versions after the deletion")
    }

    static func counting(_ setup: VersionConformanceCase.Setup) async throws {
        guard let usage = setup.storage as? any StorageUsage, let peer = setup.peer as? any StorageUsage else {
            throw ConformanceFailure(
                "the backend keeps versions but is no StorageUsage: conform to it, so that a quota can count them")
        }
        let storage = setup.storage
        let root = try await StorageConformance.root(storage)
        let size = 300 * 1024
        func stored() async throws -> Int64 {
            let bytes = try await Check.step("storedBytes(ownedBy: \"alice\")") {
                try await usage.storedBytes(ownedBy: "alice")
            }
            try Check.expectEqual(try await peer.storedBytes(ownedBy: "alice"), bytes, "the count on the other host")
            return bytes
        }
        let before = try await stored()
        let first = try await save(alice) {
            try await storage.createFile(
                named: "q.bin", in: root.id, content: Content.noise(seed: 1, size: size), overwrite: false)
        }
        let one = try await stored()
        try Check.expectEqual(one - before, Int64(size), "the bytes of a new file")
        let second = try await save(alice) {
            try await storage.writeFile(
                first.id, content: Content.noise(seed: 2, size: size), expectedVersion: first.version)
        }
        try Check.expectEqual(
            try await stored() - before, Int64(2 * size), "the bytes of two versions of other content")
        let third = try await save(alice) {
            try await storage.writeFile(
                first.id, content: Content.noise(seed: 1, size: size), expectedVersion: second.version)
        }
        let three = try await stored()
        try Check.expect(
            three - before >= Int64(2 * size) && three - before <= Int64(3 * size),
            "a third version with the first one's content costs at most its size (\(three - before) bytes in all)")
        try Check.expectEqual(try await usage.storedBytes(ownedBy: "nobody-else"), 0, "another user's bytes")
        try await storage.deleteVersion(second.version, of: first.id)
        try Check.expectEqual(
            try await stored(), three - Int64(size), "after deleting the version whose content no other one has")
        _ = third
        try await storage.delete(first.id)
        try Check.expectEqual(try await stored(), before, "after deleting the file")
    }

    /// Runs `body` as a save in `context`.
    static func save<T>(_ context: SaveContext, _ body: () async throws -> T) async throws -> T {
        try await Check.step("a save as \(context.userID ?? "nobody") through \(context.path)") {
            try await SaveContext.$current.withValue(context, operation: body)
        }
    }

    /// The text of a small body.
    static func text(_ content: FileContent) async throws -> String {
        String(buffer: try await content.body.collect(upTo: 1 << 20))
    }
}
