import NIOCore
import NIOPosix
import Synchronization
import WOPIStorage

/// Streams a byte range of an open file in chunks of up to ``ByteStream/preferredChunkSize``, reading on a thread
/// pool up to ``readSize`` bytes at a time (one hop for several chunks; the chunks are slices of that buffer).
///
/// The descriptor was opened before the metadata was read, so the stream yields exactly that version even if
/// the file is replaced meanwhile. It is closed at the end of the range, on an error or cancellation, or when
/// the stream is dropped unread.
final class FileReader: Sendable {
    private struct State {
        var descriptor: Descriptor?
        /// The next byte to read from the file.
        var offset: Int64
        /// Bytes read and not handed out yet.
        var pending = ByteBuffer()
    }

    /// The bytes of one read: large enough that a big body costs few thread-pool hops.
    static let readSize = 1 << 20

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
            if let piece = takePending() { return piece }
            guard try await pool.runIfActive({ try self.readAhead() }) else { return nil }
            return takePending()
        } catch {
            state.withLock { $0.descriptor = nil }
            if error is StorageError || error is CancellationError { throw error }
            throw StorageError(.io, "Reading the file failed; try again.", underlying: error)
        }
    }

    /// The next chunk of the bytes read ahead, if any.
    private func takePending() -> ByteBuffer? {
        state.withLock { state in
            state.pending.readSlice(length: min(ByteStream.preferredChunkSize, state.pending.readableBytes))
                .flatMap { $0.readableBytes > 0 ? $0 : nil }
        }
    }

    /// Reads the next bytes of the range into `pending`; `false` at the end of the range.
    private func readAhead() throws -> Bool {
        try state.withLock { state -> Bool in
            guard let descriptor = state.descriptor, state.offset < end else {
                state.descriptor = nil
                return false
            }
            let count = Int(min(Int64(Self.readSize), end - state.offset))
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
            state.pending = buffer
            return true
        }
    }
}
