import Foundation
import NIOCore
import NIOPosix
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private temporary file for the chunks of one PutChunkedFile: opened, then unlinked at once, so no other
/// process sees it and nothing is left behind if the process dies. Reads and writes run on NIO's blocking-IO
/// thread pool, never on the cooperative pool. Closed when the last reference goes.
final class SpoolFile: Sendable {
    private let descriptor: Int32

    /// A new empty spool file in `directory`.
    init(in directory: URL = FileManager.default.temporaryDirectory) throws {
        let path = directory.appendingPathComponent("wopikit-spool-\(UUID().uuidString)").path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StorageError(
                .io, "Cannot create a spool file in \(directory.path) (errno \(errno)); check it is writable.")
        }
        unlink(path)
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Writes `buffer` at `offset`.
    func write(_ buffer: ByteBuffer, at offset: Int64) async throws {
        let fd = descriptor
        try await NIOThreadPool.singleton.runIfActive {
            try buffer.withUnsafeReadableBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let count = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { throw StorageError(.io, "Writing the spool file failed (errno \(errno)).") }
                    done += count
                }
            }
        }
    }

    /// Reads `count` bytes at `offset` (fewer only at the file's end).
    func read(at offset: Int64, count: Int) async throws -> ByteBuffer {
        let fd = descriptor
        return try await NIOThreadPool.singleton.runIfActive {
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
                var done = 0
                while done < count {
                    let read = pread(fd, bytes.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                    if read < 0, errno == EINTR { continue }
                    guard read >= 0 else { throw StorageError(.io, "Reading the spool file failed (errno \(errno)).") }
                    if read == 0 { break }
                    done += read
                }
                return done
            }
            return buffer
        }
    }

    /// The bytes in `range`, streamed in ``ByteStream/preferredChunkSize`` reads.
    func stream(_ range: Range<Int64>) -> ByteStream {
        ByteStream(knownLength: Int64(range.count)) {
            var position = range.lowerBound
            return {
                guard position < range.upperBound else { return nil }
                let count = Int(min(Int64(ByteStream.preferredChunkSize), range.upperBound - position))
                let buffer = try await self.read(at: position, count: count)
                guard buffer.readableBytes == count else {
                    throw StorageError(.io, "The spool file is shorter than what was written to it.")
                }
                position += Int64(count)
                return buffer
            }
        }
    }
}
