import Foundation
import NIOCore
import Synchronization
import WOPIModels
public import WOPIStorage

extension RemoteStorage {
    /// Lock IDs this storage takes for the length of one write start with this prefix; a conflict with such a
    /// lock (another `RemoteStorage` writing) is waited out briefly rather than failed at once.
    static let writeLockPrefix = "wopikit-remote-write-"

    public func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        let folder = try await containerEntry(parent)
        try Self.validate(name)
        if overwrite, let existing = try await child(named: name, in: parent) {
            guard case .file(let file) = existing else {
                throw StorageError(
                    .nameConflict, "A container named \"\(name)\" already exists here.", conflictingItem: existing.id)
            }
            return try await writeFile(file.id, content: content, expectedVersion: nil)
        }
        let created: WOPIFilePointer
        do {
            created = try await remote("createFile(named: \(name))", parent) {
                try await client.createChildFile(in: folder.resource, name: .exact(name, overwrite: false))
            }
        } catch let error as StorageError where error.code == .nameConflict {
            let existing = try? await child(named: name, in: parent)
            if overwrite, case .file(let file)? = existing {
                return try await writeFile(file.id, content: content, expectedVersion: nil)
            }
            throw StorageError(
                .nameConflict, "An item named \"\(name)\" already exists in this container.",
                conflictingItem: existing?.id, underlying: error)
        }
        let id = try Self.itemID(of: created.resource)
        await directory.record(
            id,
            .init(resource: created.resource, kind: .file, name: created.name, parentID: parent, owner: folder.owner))
        do {
            if content.knownLength == 0 {
                return try await item(id).fileMetadata(or: id)
            }
            return try await writeFile(id, content: content, expectedVersion: nil)
        } catch {
            // An interrupted create leaves nothing behind.
            try? await client.deleteFile(created.resource)
            await directory.forget(id)
            throw error
        }
    }

    public func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        let entry = try await fileEntry(id)
        var info = try await remote("readFile(\(id))", id) { try await client.checkFileInfo(entry.resource) }
        let size = info.size
        let lower = min(max(range?.lowerBound ?? 0, 0), size)
        let upper = min(max(range?.upperBound ?? size, lower), size)
        if lower == upper {
            return FileContent(metadata: Self.metadata(id: id, entry: entry, info: info), body: .empty)
        }
        let download = try await remote("readFile(\(id))", id) { try await client.getFile(entry.resource) }
        if let version = download.version, version != info.version {
            // Changed between CheckFileInfo and GetFile: describe what is being read.
            info = (try? await client.checkFileInfo(entry.resource)) ?? info
            info.version = version
            if let length = download.length { info.size = length }
        }
        let metadata = Self.metadata(id: id, entry: entry, info: info)
        guard range != nil else { return FileContent(metadata: metadata, body: download.body) }
        return FileContent(metadata: metadata, body: Self.slice(download.body, from: lower, to: upper))
    }

    public func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        let entry = try await fileEntry(id)
        return try await writes.withLock(id) {
            try await self.lockedWrite(id, entry: entry, content: content, expectedVersion: expectedVersion)
        }
    }

    /// Lock (unless ``locks`` holds one), check the version, PutFile, Unlock; then describe the new version.
    private func lockedWrite(
        _ id: ItemID, entry: RemoteItemDirectory.Entry, content: ByteStream, expectedVersion: String?
    ) async throws -> FileMetadata {
        let digest = Mutex(ContentDigest())
        let counted = ByteStream(knownLength: content.knownLength) {
            var iterator = content.makeAsyncIterator()
            return {
                let chunk = try await iterator.next()
                if let chunk { digest.withLock { $0.update(chunk) } }
                return chunk
            }
        }
        let version = try await withWriteLock(id, entry: entry, expectedVersion: expectedVersion) { lockID in
            try await self.client.putFile(entry.resource, content: counted, lock: lockID)
        }
        var metadata = try await item(id).fileMetadata(or: id)
        let written = digest.withLock { $0 }
        metadata.size = written.byteCount
        metadata.sha256 = written.finalize()
        if let version { metadata.version = version }
        return metadata
    }

    /// Runs `put` with a WOPI lock on the file: the one ``locks`` holds, else a short write lock taken for it and
    /// released after. When `expectedVersion` is given, the file's version is checked under the lock first.
    /// Returns what `put` returns (the new version, when known).
    func withWriteLock(
        _ id: ItemID, entry: RemoteItemDirectory.Entry, expectedVersion: String?,
        put: @escaping @Sendable (_ lockID: String) async throws -> String?
    ) async throws -> String? {
        let what = "writeFile(\(id))"
        let file = entry.resource
        if let held = await directory.heldLock(id) {
            if let expectedVersion {
                let current = try await remote(what, id) { try await client.checkFileInfo(file) }.version
                try Self.expect(expectedVersion, current: current, id)
            }
            return try await remote(what, id) { try await put(held.id) }
        }
        let lockID = Self.writeLockPrefix + UUID().uuidString.lowercased()
        var current = try await lockForWrite(file, id: id, lockID: lockID)
        let version: String?
        do {
            if let expectedVersion {
                if current == nil {
                    current = try await remote(what, id) { try await client.checkFileInfo(file) }.version
                }
                try Self.expect(expectedVersion, current: current ?? "", id)
            }
            version = try await remote(what, id) { try await put(lockID) }
        } catch {
            _ = try? await client.unlock(file, lockID: lockID)
            throw error
        }
        _ = try? await client.unlock(file, lockID: lockID)
        return version
    }

    /// Takes the write lock, waiting out another RemoteStorage's short write lock for up to 10 s on ``clock``;
    /// returns the version Lock reports.
    private func lockForWrite(_ file: WOPIResource, id: ItemID, lockID: String) async throws -> String? {
        var delay = Duration.milliseconds(50)
        let stopwatch = Stopwatch(clock)
        while true {
            do {
                return try await client.lock(file, lockID: lockID)
            } catch let error as WOPIClientError
                where error.code == .lockConflict && (error.currentLock ?? "").hasPrefix(Self.writeLockPrefix)
                && stopwatch.elapsed() < .seconds(10)
            {
                try await clock.sleep(for: delay)
                delay = min(delay * 2, .milliseconds(500))
            } catch {
                throw await mapped(error, "writeFile(\(id))", id)
            }
        }
    }

    static func expect(_ expected: String, current: String, _ id: ItemID) throws {
        guard expected == current else {
            throw StorageError(
                .versionMismatch, "File \(id) changed meanwhile (now at version \(current)); read it again.",
                currentVersion: current)
        }
    }

    /// The bytes `lower..<upper` of a stream, dropping what comes before and stopping (cancelling the download)
    /// after.
    static func slice(_ body: ByteStream, from lower: Int64, to upper: Int64) -> ByteStream {
        ByteStream(knownLength: upper - lower) {
            var iterator = body.makeAsyncIterator()
            var position: Int64 = 0
            return {
                while position < upper, var chunk = try await iterator.next() {
                    let start = position
                    position += Int64(chunk.readableBytes)
                    if position <= lower { continue }
                    let skip = Int(max(0, lower - start))
                    let keep = Int(min(position, upper) - start) - skip
                    chunk.moveReaderIndex(forwardBy: skip)
                    return chunk.readSlice(length: keep)
                }
                return nil
            }
        }
    }

    /// The name rules of the storage abstraction plus what no WOPI host takes (``FileNameRules/default``); a host
    /// with stricter rules refuses the rest itself.
    static func validate(_ name: String) throws {
        try StorageName.validate(name)
        if let problem = FileNameRules.default.problem(with: name) {
            throw StorageError(.invalidName, "A WOPI host cannot store the name \"\(name)\": \(problem)")
        }
    }
}

extension StorageItem {
    /// The file metadata, or ``StorageError/Code/notAFile``.
    func fileMetadata(or id: ItemID) throws -> FileMetadata {
        guard case .file(let file) = self else { throw StorageError(.notAFile, "Item \(id) is not a file.") }
        return file
    }
}
