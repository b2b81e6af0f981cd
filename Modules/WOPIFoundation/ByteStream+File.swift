public import Foundation
import NIOCore

extension ByteStream {
    /// A stream of a local file's content, read in ``preferredChunkSize`` chunks as it is consumed.
    ///
    /// The file is opened when iteration starts and closed at its end. Reads are blocking calls, fine for tools
    /// and tests; servers read through their backend.
    public static func contentsOfFile(at url: URL) throws -> ByteStream {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let length = (attributes[.size] as? NSNumber)?.int64Value
        return ByteStream(knownLength: length) {
            var handle: Foundation.FileHandle?
            var finished = false
            return {
                if finished { return nil }
                if handle == nil { handle = try Foundation.FileHandle(forReadingFrom: url) }
                let data = try handle!.read(upToCount: ByteStream.preferredChunkSize) ?? Data()
                if data.isEmpty {
                    try handle?.close()
                    finished = true
                    return nil
                }
                return ByteBuffer(bytes: data)
            }
        }
    }

    /// Writes the stream to a local file (created or truncated), returning the number of bytes written.
    @discardableResult
    public func write(toFileAt url: URL) async throws -> Int64 {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw StorageError(.io, "Cannot create \(url.path); check the folder exists and is writable.")
        }
        let handle = try Foundation.FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var total: Int64 = 0
        for try await chunk in self {
            try chunk.withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
            total += Int64(chunk.readableBytes)
        }
        return total
    }
}
