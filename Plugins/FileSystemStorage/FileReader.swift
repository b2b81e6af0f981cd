import NIOCore
import NIOPosix
import Synchronization
import WOPIStorage

/// Streams a byte range of an open file in chunks of ``ByteStream/preferredChunkSize``, reading on a thread pool.
///
/// The descriptor was opened before the metadata was read, so the stream yields exactly that version even if
/// the file is replaced meanwhile. It is closed at the end of the range, on an error or cancellation, or when
/// the stream is dropped unread.
final class FileReader: Sendable {
    private struct State {
        var descriptor: Descriptor?
        var offset: Int64
    }

    private let state: Mutex<State>
    private let end: Int64
    private let pool: NIOThreadPool

    init(_ descriptor: Descriptor, range: Range<Int64>, pool: NIOThreadPool) {
        self.state = Mutex(State(descriptor: range.isEmpty ? nil : descriptor, offset: range.lowerBound))
        self.end = range.upperBound
        self.pool = pool
    }

    /// A single-pass stream over the range.
    var stream: ByteStream {
        ByteStream(knownLength: end - state.withLock { $0.offset }) { [self] in { try await self.next() } }
    }

    private func next() async throws -> ByteBuffer? {
        do {
            try Task.checkCancellation()
            return try await pool.runIfActive { try self.readChunk() }
        } catch {
            state.withLock { $0.descriptor = nil }
            if error is StorageError || error is CancellationError { throw error }
            throw StorageError(.io, "Reading the file failed; try again.", underlying: error)
        }
    }

    private func readChunk() throws -> ByteBuffer? {
        try state.withLock { state -> ByteBuffer? in
            guard let descriptor = state.descriptor, state.offset < end else {
                state.descriptor = nil
                return nil
            }
            let count = Int(min(Int64(ByteStream.preferredChunkSize), end - state.offset))
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            let offset = state.offset
            let read = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<count]), at: offset)
            }
            guard read > 0 else {
                throw StorageError(
                    .io, "The file became shorter while it was read; another program truncated it. Read it again.")
            }
            state.offset += Int64(read)
            if state.offset >= end { state.descriptor = nil }
            return buffer
        }
    }
}
