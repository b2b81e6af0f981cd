import Foundation
import NIOConcurrencyHelpers
import NIOCore
import WOPIStorage

/// A local file that holds the working copy of a file open for writing.
///
/// All access is positional (`pread`/`pwrite`), so it is safe from any thread. The descriptor stays open while
/// anything references the object, so an upload that outlives its deadline never reads a reused descriptor.
final class CacheFile: Sendable {
    private let descriptor: Int32
    private let currentPath: NIOLockedValueBox<String?>

    /// Creates an empty, private (0600) file in `directory`.
    init(directory: String, prefix: String) throws {
        let path = "\(directory)/\(prefix)-\(UUID().uuidString.lowercased())"
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw FileSystemFailure(EIO, "Cannot create a cache file in \(directory): \(Self.lastError()).")
        }
        self.descriptor = descriptor
        self.currentPath = NIOLockedValueBox(path)
    }

    deinit {
        close(descriptor)
    }

    /// Where the file is on disk, `nil` once removed.
    var path: String? { currentPath.withLockedValue { $0 } }

    /// The current length in bytes.
    func size() throws -> Int64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("read the size of") }
        return Int64(info.st_size)
    }

    /// Reads up to `count` bytes at `offset`; fewer at the end of the file.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let got = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + total, count - total, off_t(offset) + off_t(total))
            }
            if got < 0 {
                if Foundation.errno == EINTR { continue }
                throw failure("read from")
            }
            if got == 0 { break }
            total += got
        }
        bytes.removeLast(count - total)
        return bytes
    }

    /// Writes all of `bytes` at `offset`, growing the file as needed.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if written < 0 {
                if Foundation.errno == EINTR { continue }
                throw failure("write to")
            }
            done += written
        }
    }

    /// Writes a buffer's readable bytes at `offset`.
    func write(_ buffer: ByteBuffer, at offset: Int64) throws {
        try buffer.withUnsafeReadableBytes { try write($0, at: offset) }
    }

    /// Cuts or extends (with zeros) the file to `length` bytes.
    func truncate(to length: Int64) throws {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw failure("truncate") }
    }

    /// The content as a stream of chunks, read from offset 0 up to the size it has now.
    ///
    /// - Parameter onChunk: called with every chunk before it is handed on (progress, digests).
    func contentStream(onChunk: @escaping @Sendable (ByteBuffer) -> Void = { _ in }) throws -> ByteStream {
        let length = try size()
        return ByteStream(knownLength: length) { [self] in
            var offset: Int64 = 0
            return {
                guard offset < length else { return nil }
                let count = Int(min(Int64(ByteStream.preferredChunkSize), length - offset))
                let bytes = try self.read(at: offset, count: count)
                guard !bytes.isEmpty else {
                    throw FileSystemFailure(EIO, "The cache file shrank while it was being uploaded.")
                }
                offset += Int64(bytes.count)
                let chunk = ByteBuffer(bytes: bytes)
                onChunk(chunk)
                return chunk
            }
        }
    }

    /// The SHA-256 digest of the whole content.
    func digest() throws -> Data {
        var digest = ContentDigest()
        let length = try size()
        var offset: Int64 = 0
        while offset < length {
            let bytes = try read(at: offset, count: ByteStream.preferredChunkSize)
            if bytes.isEmpty { break }
            digest.update(ByteBuffer(bytes: bytes))
            offset += Int64(bytes.count)
        }
        return digest.finalize()
    }

    /// Points the descriptor at the file now at ``path``, after a finished download was renamed over it (see
    /// `LocalFileTransfer`), and keeps that file private (0600). Call it while nothing reads or writes.
    func reopen() throws {
        guard let path else { throw FileSystemFailure(ENOENT, "The cache file was already removed.") }
        let fresh = open(path, O_RDWR | O_CLOEXEC)
        guard fresh >= 0 else { throw failure("reopen") }
        defer { close(fresh) }
        guard fchmod(fresh, 0o600) == 0, dup2(fresh, descriptor) >= 0 else { throw failure("reopen") }
    }

    /// Deletes the file from disk (the open descriptor stays usable until the object goes away).
    func remove() {
        let path = currentPath.withLockedValue { path in
            defer { path = nil }
            return path
        }
        if let path { unlink(path) }
    }

    /// Moves the file to `newPath`, to keep content that could not be uploaded.
    func move(to newPath: String) throws {
        try currentPath.withLockedValue { path in
            guard let old = path else { throw FileSystemFailure(ENOENT, "The cache file was already removed.") }
            guard rename(old, newPath) == 0 else {
                throw FileSystemFailure(EIO, "Cannot move the cache file \(old) to \(newPath): \(Self.lastError()).")
            }
            path = newPath
        }
    }

    private func failure(_ action: String) -> FileSystemFailure {
        FileSystemFailure(EIO, "Cannot \(action) the cache file \(path ?? "(removed)"): \(Self.lastError()).")
    }

    private static func lastError() -> String {
        String(cString: strerror(Foundation.errno))
    }
}
