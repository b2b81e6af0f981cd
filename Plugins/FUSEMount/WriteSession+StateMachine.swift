import Foundation
import WOPIStorage

extension WriteSession {
    /// The decisions of a ``WriteSession``, without any I/O: events go in, actions for the session come out.
    ///
    /// States: `preparing` (taking the lock, loading the content) → `open` (clean or dirty) → `conflicted` (the
    /// file changed elsewhere; uploads go to a conflict copy) or `unlinked` (deleted through the mount; the content
    /// is dropped) → `closed`. A preparation that fails ends in `failed`. Local changes bump a generation number,
    /// so writes made while an upload runs keep the content dirty after it.
    struct StateMachine: Sendable {
        /// The state and what it knows.
        enum State: Sendable, Equatable {
            case preparing(Preparing)
            case open(Content)
            case conflicted(Content, ConflictCopy)
            case unlinked(Content)
            case failed(lockHeld: Bool)
            case closed
        }

        /// What a session knows while it takes the lock and loads the content.
        struct Preparing: Sendable, Equatable {
            var name: String
            var lockHeld = false
            /// The file was deleted through the mount before the session was ready.
            var unlinked = false
        }

        /// What a ready session knows about its working copy.
        struct Content: Sendable, Equatable {
            var name: String
            var parentID: ItemID?
            /// The version the next upload expects to replace.
            var baseVersion: String
            /// Bumped by every local change; the content is dirty while it differs from `uploadedGeneration`.
            var generation: UInt64
            var uploadedGeneration: UInt64 = 0
            var modified: Date?

            var isDirty: Bool { generation != uploadedGeneration }
        }

        /// The file that holds the local content after a conflict.
        struct ConflictCopy: Sendable, Equatable {
            var id: ItemID
            var name: String
            var version: String
        }

        /// What an upload should do.
        enum UploadAction: Sendable, Equatable {
            /// Nothing to upload.
            case none
            /// Nothing to upload, but the file is in conflict: report it.
            case reportConflict(ConflictCopy)
            /// Upload `generation` with `writeFile(…, expectedVersion:)`.
            case upload(generation: UInt64, expectedVersion: String)
            /// Upload `generation` over the conflict copy, then report the conflict.
            case uploadToConflictCopy(ConflictCopy, generation: UInt64)
        }

        /// What to do with the working copy when the session ends.
        enum FinishAction: Sendable, Equatable {
            /// Delete the working copy (uploaded, dropped or never loaded).
            case removeCache(releaseLock: Bool)
            /// Keep the working copy under `unsaved/`: it could not be uploaded.
            case keepUnsaved(name: String, releaseLock: Bool)
        }

        /// An event that the current state cannot take; the session reports it as `EIO`.
        struct InvalidTransition: Error, Equatable, CustomStringConvertible {
            var event: String
            var state: State
            var description: String { "A write session cannot take \"\(event)\" while \(state)" }
        }

        private(set) var state: State

        init(name: String) {
            state = .preparing(Preparing(name: name))
        }

        // MARK: - Preparation

        /// The file's name as last known.
        var name: String {
            switch state {
            case .preparing(let preparing): preparing.name
            case .open(let content), .conflicted(let content, _), .unlinked(let content): content.name
            case .failed, .closed: ""
            }
        }

        /// The file's parent as last known.
        var parentID: ItemID? { content?.parentID }

        /// The session took its lock.
        mutating func lockTaken() throws(InvalidTransition) {
            guard case .preparing(var preparing) = state else { throw invalid("lockTaken") }
            preparing.lockHeld = true
            state = .preparing(preparing)
        }

        /// The content is loaded from `metadata`'s version; `truncated` content counts as changed.
        mutating func loaded(_ metadata: FileMetadata, truncated: Bool) throws(InvalidTransition) {
            guard case .preparing(let preparing) = state, preparing.lockHeld else { throw invalid("loaded") }
            let content = Content(
                name: metadata.name, parentID: metadata.parentID, baseVersion: metadata.version,
                generation: truncated ? 1 : 0, modified: metadata.lastModified)
            state = preparing.unlinked ? .unlinked(content) : .open(content)
        }

        /// Taking the lock or loading failed; returns whether to release the lock.
        mutating func preparationFailed() -> Bool {
            guard case .preparing(let preparing) = state else { return false }
            state = .failed(lockHeld: preparing.lockHeld)
            return preparing.lockHeld
        }

        /// The lock was released after a failed preparation.
        mutating func lockReleased() {
            if case .failed = state { state = .failed(lockHeld: false) }
        }

        /// Whether the lock is held and the content loaded.
        var isReady: Bool {
            switch state {
            case .open, .conflicted, .unlinked: true
            case .preparing, .failed, .closed: false
            }
        }

        /// Whether a lock refresher should run (the lock is held by a ready session).
        var refreshesLock: Bool { isReady }

        // MARK: - Local changes

        private var content: Content? {
            switch state {
            case .open(let content), .conflicted(let content, _), .unlinked(let content): content
            case .preparing, .failed, .closed: nil
            }
        }

        /// When the working copy last changed (or the file's modification time at open).
        var modified: Date? { content?.modified }

        /// Whether there are local changes not uploaded yet.
        var isDirty: Bool { content?.isDirty ?? false }

        /// The working copy changed at `date`.
        mutating func contentChanged(at date: Date) throws(InvalidTransition) {
            try updateContent("contentChanged") { content in
                content.generation += 1
                content.modified = date
            }
        }

        /// The file was deleted through the mount: its content is dropped instead of uploaded.
        mutating func unlinked() {
            switch state {
            case .preparing(var preparing):
                preparing.unlinked = true
                state = .preparing(preparing)
            case .open(let content), .conflicted(let content, _):
                state = .unlinked(content)
            case .unlinked, .failed, .closed:
                break  // Nothing left to upload.
            }
        }

        // MARK: - Upload

        /// What the next upload does.
        var nextUpload: UploadAction {
            switch state {
            case .open(let content) where content.isDirty:
                .upload(generation: content.generation, expectedVersion: content.baseVersion)
            case .conflicted(let content, let copy):
                content.isDirty ? .uploadToConflictCopy(copy, generation: content.generation) : .reportConflict(copy)
            case .open, .preparing, .unlinked, .failed, .closed:
                .none
            }
        }

        /// `generation` is stored as `version` of the file; returns the parent whose listing changed.
        mutating func uploaded(_ generation: UInt64, version: String) throws(InvalidTransition) -> ItemID? {
            try updateContent("uploaded") { content in
                content.baseVersion = version
                content.uploadedGeneration = max(content.uploadedGeneration, generation)
                return content.parentID
            }
        }

        /// The file changed elsewhere: `generation` was stored as `copy`; later uploads go there.
        mutating func conflictCopyStored(_ copy: ConflictCopy, generation: UInt64) throws(InvalidTransition) {
            switch state {
            case .open(var content), .conflicted(var content, _):
                content.uploadedGeneration = max(content.uploadedGeneration, generation)
                state = .conflicted(content, copy)
            case .unlinked(var content):
                content.uploadedGeneration = max(content.uploadedGeneration, generation)
                state = .unlinked(content)
            case .preparing, .failed, .closed:
                throw invalid("conflictCopyStored")
            }
        }

        /// `generation` was written over the conflict copy as `version`.
        mutating func conflictCopyWritten(_ generation: UInt64, version: String) throws(InvalidTransition) {
            switch state {
            case .conflicted(var content, var copy):
                content.uploadedGeneration = max(content.uploadedGeneration, generation)
                copy.version = version
                state = .conflicted(content, copy)
            case .unlinked(var content):
                content.uploadedGeneration = max(content.uploadedGeneration, generation)
                state = .unlinked(content)
            case .preparing, .open, .failed, .closed:
                throw invalid("conflictCopyWritten")
            }
        }

        // MARK: - End

        /// The last user closed the session (after its final upload); it is closed from now on.
        mutating func finish() -> FinishAction {
            defer { state = .closed }
            switch state {
            case .open(let content), .conflicted(let content, _):
                return content.isDirty
                    ? .keepUnsaved(name: content.name, releaseLock: true) : .removeCache(releaseLock: true)
            case .unlinked:
                return .removeCache(releaseLock: true)
            case .preparing(let preparing):
                return .removeCache(releaseLock: preparing.lockHeld)
            case .failed(let lockHeld):
                return .removeCache(releaseLock: lockHeld)
            case .closed:
                return .removeCache(releaseLock: false)
            }
        }

        private mutating func updateContent<Result>(
            _ event: String, _ change: (inout Content) -> Result
        ) throws(InvalidTransition) -> Result {
            switch state {
            case .open(var content):
                let result = change(&content)
                state = .open(content)
                return result
            case .conflicted(var content, let copy):
                let result = change(&content)
                state = .conflicted(content, copy)
                return result
            case .unlinked(var content):
                let result = change(&content)
                state = .unlinked(content)
                return result
            case .preparing, .failed, .closed:
                throw invalid(event)
            }
        }

        private func invalid(_ event: String) -> InvalidTransition {
            InvalidTransition(event: event, state: state)
        }
    }
}
