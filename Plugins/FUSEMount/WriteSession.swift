import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import WOPIStorage

/// The write-back working copy of one file that is open for writing through the mount.
///
/// Life of a session (model: davfs2 and the rclone write cache):
/// 1. It takes a WOPI-style lock through the ``LockStore`` (`compareAndSwap(expected: nil, …)` with a lock ID unique
///    to the session); a file locked by someone else fails with `EACCES`.
/// 2. It downloads the content into a local ``CacheFile`` (skipped for `O_TRUNC` and new files) and remembers the
///    version it started from.
/// 3. Reads and writes go to the cache file; flush, fsync and the final release upload it with
///    `writeFile(…, expectedVersion: <base version>)`. A backend that is a `LocalFileTransfer` (a remote WOPI host
///    with incremental transfer) downloads into and uploads from the cache file itself, moving only what changed.
/// 4. When the file changed (or vanished) meanwhile, nothing is overwritten: the local content is stored as a
///    conflict copy next to the file (see ``ConflictName``), and every later flush reports `EIO`.
/// 5. The lock is refreshed while the session lives and released after the final upload. Content that could not
///    be uploaded at all is kept under `<cache directory>/unsaved/` and logged.
///
/// Its ``StateMachine`` makes the decisions: steps 1-2 are `preparing` (ending in `failed` when they fail),
/// step 3 is `open` (clean or dirty), step 4 is `conflicted`, a file deleted through the mount is `unlinked`
/// (its content is dropped), and step 5 ends in `closed`. This class performs the I/O the machine asks for.
///
/// Every open of the same file through one mount shares one session (and one lock), so the openers see each
/// other's writes as POSIX requires.
final class WriteSession: Sendable {
    /// How a session gets its initial content.
    enum Preparation: Sendable {
        /// Download the current content.
        case download
        /// Start empty (`O_TRUNC`); the content is uploaded even when nothing is written.
        case truncate
        /// A file this mount just created with this metadata; nothing to download.
        case created(FileMetadata)
    }

    /// The machine and the tasks the session runs for it.
    struct State {
        var machine: StateMachine
        var prepared: Task<Void, any Error>?
        var lastUpload: Task<Void, any Error>?
        var refresher: Task<Void, Never>?
        /// Whether the content started empty (`O_TRUNC`).
        var truncatedAtOpen = false
    }

    /// The file this session edits.
    let itemID: ItemID
    /// The lock ID this session holds on the file.
    let lockID: String
    /// The local working copy.
    let cache: CacheFile
    let environment: MountEnvironment
    let state: NIOLockedValueBox<State>

    /// Creates a session; call ``start(_:after:)`` next.
    init(itemID: ItemID, name: String, environment: MountEnvironment) throws {
        self.itemID = itemID
        self.lockID = "\(environment.configuration.lockHolder)/\(UUID().uuidString.lowercased())"
        self.environment = environment
        self.cache = try CacheFile(directory: environment.configuration.cacheDirectory, prefix: "open")
        self.state = NIOLockedValueBox(State(machine: StateMachine(name: name)))
    }

    // MARK: - Preparation

    /// Starts taking the lock and loading the content, once `previous` (an earlier session on the same file that
    /// is still finishing) is done.
    func start(_ preparation: Preparation, after previous: Task<Void, Never>?) {
        let task = Task {
            await previous?.value
            try await self.prepare(preparation)
        }
        state.withLockedValue { $0.prepared = task }
    }

    /// Waits until the session is usable.
    ///
    /// - Throws: `EACCES` when someone else holds the lock, the backend's error, or ``DeadlineExceeded``.
    func waitUntilReady() async throws {
        let task = state.withLockedValue { $0.prepared }
        try await task?.value
    }

    /// Whether the lock is held and the content loaded.
    var isReady: Bool { state.withLockedValue { $0.machine.isReady } }

    private func prepare(_ preparation: Preparation) async throws {
        do {
            try await environment.bounded { watchdog in
                try await self.lock()
                watchdog.touch()
                try await self.load(preparation, watchdog: watchdog)
            }
        } catch {
            if state.withLockedValue({ $0.machine.preparationFailed() }), await releaseLock() {
                state.withLockedValue { $0.machine.lockReleased() }
            }
            throw error
        }
        startRefreshingLock()
    }

    private func load(_ preparation: Preparation, watchdog: Watchdog) async throws {
        let backend = environment.backend
        let metadata: FileMetadata
        switch preparation {
        case .created(let created):
            metadata = created
        case .truncate:
            metadata = try await backend.file(itemID)
        case .download:
            if let transfer = backend as? any LocalFileTransfer, let path = cache.path {
                // Straight into the working copy: only what the backend does not hold locally crosses the wire.
                metadata = try await transfer.readFile(itemID, toLocalFile: path) { watchdog.touch() }
                try cache.reopen()
                break
            }
            let content = try await backend.readFile(itemID, range: nil)
            var offset: Int64 = 0
            for try await chunk in content.body {
                try cache.write(chunk, at: offset)
                offset += Int64(chunk.readableBytes)
                watchdog.touch()
            }
            metadata = content.metadata
        }
        let truncated = if case .truncate = preparation { true } else { false }
        state.withLockedValue { $0.truncatedAtOpen = truncated }
        try update { try $0.loaded(metadata, truncated: truncated) }
    }

    // MARK: - Local access (called on the FUSE thread; local disk only)

    /// Reads from the working copy.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        try cache.read(at: offset, count: count)
    }

    /// Writes to the working copy and marks it dirty.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        try cache.write(bytes, at: offset)
        try update { try $0.contentChanged(at: Date()) }
    }

    /// Cuts or extends the working copy and marks it dirty.
    func truncate(to length: Int64) throws {
        try cache.truncate(to: length)
        try update { try $0.contentChanged(at: Date()) }
    }

    /// Applies an event to the machine; an event the state cannot take fails with `EIO`.
    func update<Result>(_ event: (inout StateMachine) throws -> Result) throws -> Result {
        do {
            return try state.withLockedValue { try event(&$0.machine) }
        } catch let error as StateMachine.InvalidTransition {
            environment.logger.error("Write session bug", metadata: ["item": "\(itemID)", "error": "\(error)"])
            throw FileSystemFailure(EIO, "\(error); please report this.")
        }
    }

    /// The working copy's size, once ready.
    var localSize: Int64? {
        guard isReady else { return nil }
        return try? cache.size()
    }

    /// Whether the file was opened with `O_TRUNC` and its working copy is still empty.
    var isEmptyAfterTruncation: Bool {
        state.withLockedValue { $0.truncatedAtOpen } && localSize == 0
    }

    /// When the working copy last changed (or the file's modification time at open).
    var modified: Date? { state.withLockedValue { $0.machine.modified } }

    /// Whether there are local changes not uploaded yet.
    var isDirty: Bool { state.withLockedValue { $0.machine.isDirty } }

    /// Records that the file was deleted through the mount: its content is dropped instead of uploaded.
    func markUnlinked() {
        state.withLockedValue { $0.machine.unlinked() }
    }

    // MARK: - Upload

    /// Uploads local changes, if any; uploads of one session never overlap.
    ///
    /// - Throws: `EIO` when the file changed meanwhile (the content went to a conflict copy) and on every later
    ///   call; the backend's error or ``DeadlineExceeded`` when the upload failed (the content stays dirty).
    func upload() async throws {
        let task = state.withLockedValue { state -> Task<Void, any Error> in
            let previous = state.lastUpload
            let task = Task {
                _ = await previous?.result
                try await self.uploadIfDirty()
            }
            state.lastUpload = task
            return task
        }
        try await task.value
    }

    private func uploadIfDirty() async throws {
        switch state.withLockedValue({ $0.machine.nextUpload }) {
        case .none:
            return
        case .reportConflict(let copy):
            throw conflictFailure(copy)
        case .uploadToConflictCopy(let copy, let generation):
            try await environment.bounded { watchdog in
                let content = try self.cache.contentStream { _ in watchdog.touch() }
                let stored = try await self.environment.backend.writeFile(
                    copy.id, content: content, expectedVersion: nil)
                try self.update { try $0.conflictCopyWritten(generation, version: stored.version) }
            }
            throw conflictFailure(copy)
        case .upload(let generation, let expectedVersion):
            try await environment.bounded { watchdog in
                do {
                    let stored = try await self.uploadWorkingCopy(expectedVersion: expectedVersion, watchdog: watchdog)
                    try self.markUploaded(generation, version: stored.version)
                    self.environment.logger.debug(
                        "Uploaded a file", metadata: ["item": "\(self.itemID)", "version": "\(stored.version)"])
                } catch let error as StorageError where error.code == .versionMismatch || error.code == .notFound {
                    if error.code == .versionMismatch, try await self.adoptOwnLateUpload(generation) { return }
                    try await self.keepAsConflictCopy(generation: generation, cause: error, watchdog: watchdog)
                }
            }
        }
    }

    /// Stores the working copy as the file's content: from the local file when the backend takes local files
    /// (`LocalFileTransfer`: a remote host then gets only the chunks it lacks), else as a stream.
    private func uploadWorkingCopy(expectedVersion: String?, watchdog: Watchdog) async throws -> FileMetadata {
        if let transfer = environment.backend as? any LocalFileTransfer, let path = cache.path {
            return try await transfer.writeFile(itemID, fromLocalFile: path, expectedVersion: expectedVersion) {
                watchdog.touch()
            }
        }
        let content = try cache.contentStream { _ in watchdog.touch() }
        return try await environment.backend.writeFile(itemID, content: content, expectedVersion: expectedVersion)
    }

    private func markUploaded(_ generation: UInt64, version: String) throws {
        let parentID = try update { try $0.uploaded(generation, version: version) }
        // Listings cached before the upload carry the old size.
        environment.directoryCache.invalidate(parentID)
    }

    /// An earlier upload that missed its deadline may have landed after all: then the file holds exactly the
    /// local content, and its new version is ours rather than a conflict.
    private func adoptOwnLateUpload(_ generation: UInt64) async throws -> Bool {
        let current = try await environment.backend.file(itemID)
        guard let remoteDigest = current.sha256, try remoteDigest == cache.digest() else { return false }
        try markUploaded(generation, version: current.version)
        environment.logger.info(
            "An earlier upload that timed out had landed; no conflict", metadata: ["item": "\(itemID)"])
        return true
    }

    private func keepAsConflictCopy(generation: UInt64, cause: StorageError, watchdog: Watchdog) async throws {
        let backend = environment.backend
        var (name, parentID) = state.withLockedValue { (name: $0.machine.name, parentID: $0.machine.parentID) }
        if let current = try? await backend.item(itemID) {
            name = current.name
            parentID = current.parentID
        }
        guard let parentID else { throw cause }
        var attempt = 0
        while true {
            let copyName = ConflictName.make(for: name, at: Date(), attempt: attempt)
            do {
                let content = try cache.contentStream { _ in watchdog.touch() }
                let stored = try await backend.createFile(
                    named: copyName, in: parentID, content: content, overwrite: false)
                let copy = StateMachine.ConflictCopy(id: stored.id, name: stored.name, version: stored.version)
                try update { try $0.conflictCopyStored(copy, generation: generation) }
                environment.directoryCache.invalidate(parentID)
                environment.logger.error(
                    "\"\(name)\" was changed or deleted elsewhere while open here; kept the local version as a conflict copy",
                    metadata: ["item": "\(itemID)", "conflictCopy": "\(stored.name)", "cause": "\(cause.code)"])
                throw conflictFailure(copy)
            } catch let error as StorageError where error.code == .nameConflict && attempt < 20 {
                attempt += 1
            }
        }
    }

    private func conflictFailure(_ copy: StateMachine.ConflictCopy) -> FileSystemFailure {
        FileSystemFailure(
            EIO, "The file changed elsewhere while open; the local version was saved as \"\(copy.name)\".")
    }

    // MARK: - End

    /// Ends the session after its last user closed it: final upload, lock release, cache cleanup.
    ///
    /// Never throws and never hangs longer than a few operation timeouts. Content that could not be uploaded is
    /// moved to `<cache directory>/unsaved/` and logged as an error.
    func finish() async {
        let prepared = state.withLockedValue { $0.prepared }
        _ = await prepared?.result
        if isReady {
            do {
                try await upload()
            } catch {
                environment.logger.debug(
                    "Final upload failed", metadata: ["item": "\(itemID)", "error": "\(error)"])
            }
        }
        let action = state.withLockedValue { state in
            state.refresher?.cancel()
            state.refresher = nil
            return state.machine.finish()
        }
        switch action {
        case .keepUnsaved(let name, let releaseLock):
            preserveUnsaved(name: name)
            if releaseLock { await self.releaseLock() }
        case .removeCache(let releaseLock):
            cache.remove()
            if releaseLock { await self.releaseLock() }
        }
    }

    private func preserveUnsaved(name: String) {
        let directory = environment.configuration.cacheDirectory + "/unsaved"
        let stamp = Int(Date().timeIntervalSince1970)
        let target = "\(directory)/\(stamp)-\(itemID)-\(name)"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try cache.move(to: target)
            environment.logger.error(
                "Could not upload \"\(name)\"; its content is kept locally",
                metadata: ["item": "\(itemID)", "path": "\(target)"])
        } catch {
            environment.logger.error(
                "Could not upload \"\(name)\"; its content is kept locally",
                metadata: ["item": "\(itemID)", "path": "\(cache.path ?? "?")", "error": "\(error)"])
        }
    }
}
