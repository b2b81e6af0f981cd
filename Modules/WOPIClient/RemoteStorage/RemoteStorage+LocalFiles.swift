import Foundation
import Logging
import Synchronization
import WOPIModels
public import WOPIStorage

extension RemoteStorage: LocalFileTransfer {
    /// Downloads file `id` to `path` with ``WOPIClient/download(_:to:cache:progress:)``: with a ``chunkCache``
    /// and a host that chunks the file, only the chunks the cache lacks cross the wire.
    public func readFile(
        _ id: ItemID, toLocalFile path: String, progress: @escaping @Sendable () -> Void
    ) async throws -> FileMetadata {
        let entry = try await fileEntry(id)
        let what = "readFile(\(id), toLocalFile:)"
        var info = try await remote(what, id) { try await client.checkFileInfo(entry.resource) }
        let figures = try await remote(what, id) { [info] in
            try await client.download(
                entry.resource, to: URL(fileURLWithPath: path), cache: chunkCache, info: info,
                progress: { _, _ in progress() })
        }
        if let version = figures.version, version != info.version {
            // Changed between CheckFileInfo and the download: describe what was read.
            info = (try? await client.checkFileInfo(entry.resource)) ?? info
            info.version = version
        }
        info.size = figures.fileBytes
        logTransfer("Downloaded", id, figures)
        return Self.metadata(id: id, entry: entry, info: info)
    }

    /// Uploads the local file at `path` as file `id`'s content with ``WOPIClient/upload(_:to:lock:cache:progress:)``
    /// under the write lock ``writeFile(_:content:expectedVersion:)`` takes (the version checked under it): with a
    /// ``chunkCache`` and a host that chunks the file, only the chunks the host lacks cross the wire.
    public func writeFile(
        _ id: ItemID, fromLocalFile path: String, expectedVersion: String?, progress: @escaping @Sendable () -> Void
    ) async throws -> FileMetadata {
        let entry = try await fileEntry(id)
        return try await writes.withLock(id) {
            let figures = Mutex<TransferFigures?>(nil)
            let version = try await self.withWriteLock(id, entry: entry, expectedVersion: expectedVersion) { lockID in
                let info = try await self.client.checkFileInfo(entry.resource)
                // The version was checked under the lock, so the current sequence number is the one replaced.
                let sent = try await self.client.upload(
                    URL(fileURLWithPath: path), to: entry.resource, lock: .wopi(lockID), cache: self.chunkCache,
                    info: info, basis: .current, progress: { _, _ in progress() })
                figures.withLock { $0 = sent }
                return sent.version
            }
            var metadata = try await self.item(id).fileMetadata(or: id)
            if let sent = figures.withLock({ $0 }) {
                metadata.size = sent.fileBytes
                self.logTransfer("Uploaded", id, sent)
            }
            if let version { metadata.version = version }
            return metadata
        }
    }

    /// Whether the ``chunkCache`` keeps the chunk list of an earlier transfer of `id`, so that a download lists
    /// those chunks as known.
    public func holdsEarlierContent(of id: ItemID) async -> Bool {
        guard let chunkCache, let entry = await directory.entry(id), entry.kind == .file else { return false }
        return chunkCache.manifest(for: entry.resource.wopiSrc.absoluteString) != nil
    }

    private func logTransfer(_ verb: String, _ id: ItemID, _ figures: TransferFigures) {
        logger.debug(
            "\(verb) a file",
            metadata: [
                "item": "\(id)", "bytes": "\(figures.fileBytes)", "wireBytes": "\(figures.wireBytes)",
                "incremental": "\(figures.incremental)",
                "chunks": "\(figures.chunksTransferred)/\(figures.chunks)",
            ])
    }
}
