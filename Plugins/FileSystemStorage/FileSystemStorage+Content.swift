import Foundation
import NIOCore
public import WOPIStorage

extension FileSystemStorage {
    public func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        let name = try FileTree.storedName(name)
        _ = try await blocking("Checking container \(parent)") { [tree] in try tree.locateContainer(parent).id }
        let (temporary, stamp) = try await receive(content)
        return try await blocking("Creating file \"\(name)\"") { [tree] in
            try tree.commitCreate(temporary, stamp: stamp, named: name, in: parent, overwrite: overwrite)
        }
    }

    public func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        _ = try await blocking("Checking file \(id)") { [tree] in try tree.locateFile(id).id }
        let (temporary, stamp) = try await receive(content)
        return try await blocking("Writing file \(id)") { [tree] in
            try tree.commitWrite(temporary, stamp: stamp, to: id, expectedVersion: expectedVersion)
        }
    }

    public func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        try await blocking("Opening file \(id)") { [tree, pool] in
            let location = try tree.locateFile(id)
            let metadata = try tree.describeFile(location)
            let size = location.status.size
            let lower = min(max(range?.lowerBound ?? 0, 0), size)
            let upper = min(max(range?.upperBound ?? size, lower), size)
            let reader = FileReader(location.entry, range: lower..<upper, pool: pool)
            return FileContent(metadata: metadata, body: reader.stream)
        }
    }

    /// How many bytes of a body are gathered before they are written, in one trip to the thread pool.
    static let writeBatchBytes = 1 << 20

    /// Streams a body into a new temporary file, flushed and stamped; the file is removed if anything fails.
    ///
    /// The body's chunks are hashed as they come and written in batches of ``writeBatchBytes``, so a large body costs
    /// one trip to the pool per MiB rather than one per network read. One batch is written while the next arrives,
    /// so memory stays at two batches.
    private func receive(_ content: ByteStream) async throws -> (TemporaryFile, ContentStamp) {
        let temporary = try await blocking("Creating a temporary file") { [tree] in
            try TemporaryFile(in: tree.temporary)
        }
        var digest = ContentDigest()
        do {
            try await withThrowingTaskGroup(of: Void.self) { writes in
                // One batch is written while the next is received and hashed.
                var batch: [ByteBuffer] = []
                var batchBytes = 0
                var writing = false
                for try await chunk in content {
                    digest.update(chunk)
                    batch.append(chunk)
                    batchBytes += chunk.readableBytes
                    guard batchBytes >= Self.writeBatchBytes else { continue }
                    if writing { try await writes.next() }
                    writes.addTask { [batch] in
                        try await self.blocking("Writing content") { try temporary.append(batch) }
                    }
                    writing = true
                    batch.removeAll(keepingCapacity: true)
                    batchBytes = 0
                }
                try await writes.waitForAll()
                if !batch.isEmpty {
                    try await blocking("Writing content") { [batch] in try temporary.append(batch) }
                }
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(
                .io, "The content stream failed before its end; nothing was changed. Send the content again.",
                underlying: error)
        }
        let sha256 = digest.finalize()
        let (_, stamp) = try await blocking("Flushing content") { try temporary.finish(sha256: sha256) }
        return (temporary, stamp)
    }
}
