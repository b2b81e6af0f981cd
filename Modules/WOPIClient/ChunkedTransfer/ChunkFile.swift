import Foundation
public import WOPIChunking

/// An open file of chunk bytes (a cached chunk, or a local file being chunked), read positionally; close it with
/// ``close()``.
public struct ChunkFile: Sendable {
    /// Bytes read or written per call.
    static let bufferSize = 256 * 1024

    /// The descriptor.
    public let descriptor: Int32

    /// Wraps an open descriptor, which the ``ChunkFile`` now owns.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Opens the file at `path` for reading, or `nil` when it cannot be opened.
    public init?(readingAt path: String) {
        let descriptor = posixOpen(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// The file's length.
    public func length() throws -> Int64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ChunkCacheError("Cannot read a chunk file's size.") }
        return Int64(info.st_size)
    }

    /// The ``SpookyHash`` of the first `length` bytes.
    public func hash(length: Int64) throws -> ChunkID {
        var hasher = SpookyHash()
        try read(offset: 0, length: length) { hasher.update($0) }
        return hasher.finalize()
    }

    /// Calls `body` with the `length` bytes at `offset`, in pieces of at most 256 KiB.
    public func read(
        offset: Int64, length: Int64, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        var position = offset
        while position < offset + length {
            let want = Int(min(Int64(buffer.count), offset + length - position))
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, off_t(position)) }
            guard count > 0 else { throw ChunkCacheError("A chunk file ended early or could not be read.") }
            try buffer.withUnsafeBytes { try body(.init(rebasing: $0[..<count])) }
            position += Int64(count)
        }
    }

    /// Closes the descriptor.
    public func close() {
        posixClose(descriptor)
    }
}

/// A chunk being written into a ``ChunkCache``: bytes go to a private temporary file and are hashed on the way;
/// ``commit(as:)`` keeps it only when the hash is the expected ID.
public final class ChunkWriter {
    private let cache: ChunkCache
    private let descriptor: Int32
    private let temporaryPath: String
    private var hasher = SpookyHash()
    /// The bytes written so far.
    public private(set) var length: Int64 = 0

    init(cache: ChunkCache, descriptor: Int32, temporaryPath: String) {
        self.cache = cache
        self.descriptor = descriptor
        self.temporaryPath = temporaryPath
    }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let count = posixWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            guard count > 0 else {
                discard()
                throw ChunkCacheError("Cannot write a chunk to the cache (\(String(cString: strerror(errno)))).")
            }
            offset += count
        }
        hasher.update(bytes)
        length += Int64(bytes.count)
    }

    /// Keeps the chunk as `id` when its bytes hash to `id`; otherwise discards it and throws.
    public func commit(as id: ChunkID) throws {
        posixClose(descriptor)
        guard hasher.finalize() == id else {
            unlink(temporaryPath)
            throw ChunkCacheError("A chunk's bytes do not hash to its ID \(id); it was not kept.")
        }
        try cache.install(temporaryPath, as: id)
    }

    /// Drops what was written.
    public func discard() {
        posixClose(descriptor)
        unlink(temporaryPath)
    }
}
