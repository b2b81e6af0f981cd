import Foundation
import Testing
import WOPIStorage

@testable import FUSEMount

/// The write session's decisions, without a mount: every event in every state.
struct WriteSessionStateMachineTests {
    typealias Machine = WriteSession.StateMachine

    static let parent = ItemID(rawValue: "folder")!
    static let start = Date(timeIntervalSince1970: 1_000)

    static func metadata(version: String = "v1", name: String = "report.txt") -> FileMetadata {
        FileMetadata(
            id: ItemID(rawValue: "file")!, name: name, parentID: parent, ownerID: "alice", size: 5, version: version,
            lastModified: start, sha256: nil)
    }

    /// A machine that took its lock and loaded version `v1`.
    static func ready(truncated: Bool = false) throws -> Machine {
        var machine = Machine(name: "old name.txt")
        try machine.lockTaken()
        try machine.loaded(metadata(), truncated: truncated)
        return machine
    }

    static let copy = Machine.ConflictCopy(
        id: ItemID(rawValue: "copy")!, name: "report (conflict).txt", version: "c1")

    @Test func preparationTakesTheLockThenLoadsAndIsCleanAtTheLoadedVersion() throws {
        var machine = Machine(name: "report.txt")
        #expect(!machine.isReady)
        #expect(machine.name == "report.txt")
        #expect(machine.nextUpload == .none)
        #expect(throws: Machine.InvalidTransition.self, "content loads only under the lock") {
            try machine.loaded(Self.metadata(), truncated: false)
        }
        try machine.lockTaken()
        try machine.loaded(Self.metadata(name: "renamed.txt"), truncated: false)
        #expect(machine.isReady)
        #expect(machine.refreshesLock)
        #expect(machine.name == "renamed.txt", "the loaded metadata's name wins")
        #expect(machine.parentID == Self.parent)
        #expect(machine.modified == Self.start)
        #expect(!machine.isDirty)
        #expect(machine.nextUpload == .none)
        #expect(throws: Machine.InvalidTransition.self) { try machine.lockTaken() }
        #expect(throws: Machine.InvalidTransition.self) { try machine.loaded(Self.metadata(), truncated: false) }
        let ending = machine.finish()
        #expect(ending == .removeCache(releaseLock: true))
        #expect(machine.state == .closed)
    }

    @Test func truncatedContentIsUploadedEvenWithoutWrites() throws {
        let machine = try Self.ready(truncated: true)
        #expect(machine.isDirty)
        #expect(machine.nextUpload == .upload(generation: 1, expectedVersion: "v1"))
    }

    @Test func writesMakeItDirtyAndAnUploadMovesTheBaseVersion() throws {
        var machine = try Self.ready()
        let later = Self.start.addingTimeInterval(60)
        try machine.contentChanged(at: later)
        #expect(machine.isDirty)
        #expect(machine.modified == later)
        #expect(machine.nextUpload == .upload(generation: 1, expectedVersion: "v1"))
        let changedParent = try machine.uploaded(1, version: "v2")
        #expect(changedParent == Self.parent, "the parent's listing changed")
        #expect(!machine.isDirty)
        #expect(machine.nextUpload == .none)
        try machine.contentChanged(at: later)
        #expect(machine.nextUpload == .upload(generation: 2, expectedVersion: "v2"))
    }

    @Test func openersSharingTheSessionKeepItDirtyWhenTheyWriteDuringAnUpload() throws {
        var machine = try Self.ready()
        try machine.contentChanged(at: Self.start)  // the first opener writes
        guard case .upload(let generation, _) = machine.nextUpload else {
            Issue.record("expected an upload, got \(machine.nextUpload)")
            return
        }
        try machine.contentChanged(at: Self.start)  // the second opener writes while that upload runs
        _ = try machine.uploaded(generation, version: "v2")
        #expect(machine.isDirty, "the second write is not uploaded yet")
        #expect(machine.nextUpload == .upload(generation: 2, expectedVersion: "v2"))
        _ = try machine.uploaded(2, version: "v3")
        #expect(!machine.isDirty)
        _ = try machine.uploaded(1, version: "v4")  // a late report of an older upload
        #expect(!machine.isDirty, "an older generation never makes saved content dirty again")
    }

    @Test func aFailedUploadLeavesTheContentDirtyAndKeptWhenTheSessionEnds() throws {
        var machine = try Self.ready()
        try machine.contentChanged(at: Self.start)
        let attempt = machine.nextUpload
        // The upload threw: no event reaches the machine, so the same upload is due again.
        #expect(machine.nextUpload == attempt)
        #expect(machine.isDirty)
        let ending = machine.finish()
        #expect(ending == .keepUnsaved(name: "report.txt", releaseLock: true))
        #expect(machine.state == .closed)
    }

    @Test func aConflictSendsLaterUploadsToTheConflictCopyAndReportsItEveryTime() throws {
        var machine = try Self.ready()
        try machine.contentChanged(at: Self.start)
        try machine.conflictCopyStored(Self.copy, generation: 1)
        #expect(machine.state == .conflicted(try #require(Self.content(of: machine)), Self.copy))
        #expect(!machine.isDirty)
        #expect(machine.nextUpload == .reportConflict(Self.copy), "every later flush reports the conflict")
        try machine.contentChanged(at: Self.start)
        #expect(machine.nextUpload == .uploadToConflictCopy(Self.copy, generation: 2))
        try machine.conflictCopyWritten(2, version: "c2")
        var written = Self.copy
        written.version = "c2"
        #expect(machine.nextUpload == .reportConflict(written))
        let ending = machine.finish()
        #expect(ending == .removeCache(releaseLock: true), "the conflict copy holds the content")
    }

    @Test func aConflictCopyCanOnlyBeWrittenInConflict() throws {
        var machine = try Self.ready()
        #expect(throws: Machine.InvalidTransition.self) { try machine.conflictCopyWritten(1, version: "c2") }
        var preparing = Machine(name: "report.txt")
        #expect(throws: Machine.InvalidTransition.self) { try preparing.conflictCopyStored(Self.copy, generation: 1) }
    }

    @Test func unlinkWhileOpenDropsTheContentButKeepsLocalAccess() throws {
        var machine = try Self.ready()
        try machine.contentChanged(at: Self.start)
        machine.unlinked()
        #expect(machine.isReady, "an unlinked file stays readable and writable through open handles")
        #expect(machine.nextUpload == .none)
        try machine.contentChanged(at: Self.start.addingTimeInterval(1))
        #expect(machine.modified == Self.start.addingTimeInterval(1))
        #expect(machine.nextUpload == .none)
        _ = try machine.uploaded(1, version: "v2")  // an upload that was already running still lands
        let ending = machine.finish()
        #expect(ending == .removeCache(releaseLock: true), "nothing is kept for a deleted file")
    }

    @Test func unlinkInConflictAndUnlinkWhilePreparingAlsoDropTheContent() throws {
        var conflicted = try Self.ready()
        try conflicted.contentChanged(at: Self.start)
        try conflicted.conflictCopyStored(Self.copy, generation: 1)
        try conflicted.contentChanged(at: Self.start)
        conflicted.unlinked()
        #expect(conflicted.nextUpload == .none)
        let conflictedEnding = conflicted.finish()
        #expect(conflictedEnding == .removeCache(releaseLock: true))

        var preparing = Machine(name: "report.txt")
        try preparing.lockTaken()
        preparing.unlinked()
        try preparing.loaded(Self.metadata(), truncated: true)
        #expect(preparing.isReady)
        #expect(preparing.nextUpload == .none, "a file deleted before it was ready is never uploaded")
        let preparingEnding = preparing.finish()
        #expect(preparingEnding == .removeCache(releaseLock: true))
    }

    @Test func aFailedPreparationReleasesTheLockOnlyWhenItHoldsIt() throws {
        var refused = Machine(name: "report.txt")
        let refusedReleases = refused.preparationFailed()
        #expect(!refusedReleases, "someone else holds the lock")
        #expect(refused.state == .failed(lockHeld: false))
        #expect(!refused.isReady)
        #expect(!refused.refreshesLock)
        #expect(throws: Machine.InvalidTransition.self) { try refused.contentChanged(at: Self.start) }
        let refusedEnding = refused.finish()
        #expect(refusedEnding == .removeCache(releaseLock: false))

        var downloadFailed = Machine(name: "report.txt")
        try downloadFailed.lockTaken()
        let downloadFailedReleases = downloadFailed.preparationFailed()
        #expect(downloadFailedReleases)
        #expect(downloadFailed.state == .failed(lockHeld: true))
        downloadFailed.lockReleased()
        let downloadFailedEnding = downloadFailed.finish()
        #expect(downloadFailedEnding == .removeCache(releaseLock: false), "released once already")

        var releaseFailed = Machine(name: "report.txt")
        try releaseFailed.lockTaken()
        _ = releaseFailed.preparationFailed()
        let releaseFailedEnding = releaseFailed.finish()
        #expect(releaseFailedEnding == .removeCache(releaseLock: true), "the release is tried again")
    }

    @Test func aClosedSessionTakesNoMoreChanges() throws {
        var machine = try Self.ready()
        _ = machine.finish()
        #expect(!machine.isReady)
        #expect(!machine.isDirty)
        #expect(machine.nextUpload == .none)
        #expect(throws: Machine.InvalidTransition.self) { try machine.contentChanged(at: Self.start) }
        #expect(throws: Machine.InvalidTransition.self) { _ = try machine.uploaded(1, version: "v2") }
        let releases = machine.preparationFailed()
        #expect(!releases)
        machine.unlinked()
        #expect(machine.state == .closed)
        let ending = machine.finish()
        #expect(ending == .removeCache(releaseLock: false))
    }

    static func content(of machine: Machine) -> Machine.Content? {
        switch machine.state {
        case .open(let content), .conflicted(let content, _), .unlinked(let content): content
        case .preparing, .failed, .closed: nil
        }
    }
}
