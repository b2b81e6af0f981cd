public import NIOCore

/// A single-pass asynchronous sequence of byte chunks: the one body type of WOPIKit.
///
/// File content flows through the SDK as a `ByteStream` in both directions, so that no layer holds a whole file
/// in memory. Wrap any `AsyncSequence` of `ByteBuffer`s, or give a closure that produces the next chunk.
///
/// ```swift
/// let body = ByteStream(chunks: [ByteBuffer(string: "hello")])
/// for try await chunk in body { ... }
/// ```
public struct ByteStream: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    public typealias Failure = any Error

    /// The chunk size the SDK's own producers use.
    public static let preferredChunkSize = 256 * 1024

    /// The number of bytes the stream will produce, when known up front.
    public let knownLength: Int64?
    private let makeIterator: @Sendable () -> AsyncIterator

    /// Wraps an existing asynchronous sequence of buffers.
    public init<Base: AsyncSequence & Sendable>(_ base: Base, knownLength: Int64? = nil)
    where Base.Element == ByteBuffer {
        self.knownLength = knownLength
        self.makeIterator = {
            var iterator = base.makeAsyncIterator()
            return AsyncIterator { try await iterator.next() }
        }
    }

    /// Creates a stream from a closure that returns the next chunk, or `nil` at the end.
    ///
    /// `makeNext` is called once per iteration of the stream and returns the chunk producer for that pass.
    public init(knownLength: Int64? = nil, makeNext: @escaping @Sendable () -> (() async throws -> ByteBuffer?)) {
        self.knownLength = knownLength
        self.makeIterator = { AsyncIterator(next: makeNext()) }
    }

    /// A stream of the given chunks, already in memory (for small bodies and tests).
    public init(chunks: [ByteBuffer]) {
        let length = chunks.reduce(Int64(0)) { $0 + Int64($1.readableBytes) }
        self.init(knownLength: length) {
            var remaining = chunks[...]
            return { remaining.popFirst() }
        }
    }

    /// A stream of one buffer.
    public init(buffer: ByteBuffer) {
        self.init(chunks: buffer.readableBytes == 0 ? [] : [buffer])
    }

    /// An empty stream.
    public static let empty = ByteStream(chunks: [])

    public func makeAsyncIterator() -> AsyncIterator { makeIterator() }

    /// Iterates a ``ByteStream``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let nextChunk: () async throws -> ByteBuffer?

        init(next: @escaping () async throws -> ByteBuffer?) {
            self.nextChunk = next
        }

        public mutating func next() async throws -> ByteBuffer? {
            // Skip empty chunks so that consumers never see a zero-length element.
            while let chunk = try await nextChunk() {
                if chunk.readableBytes > 0 { return chunk }
            }
            return nil
        }
    }
}

extension ByteStream {
    /// Collects the whole stream into one buffer, failing when it exceeds `limit` bytes.
    ///
    /// Meant for small bodies (JSON, user info) and tests; never call it on file content.
    public func collect(upTo limit: Int) async throws -> ByteBuffer {
        var result = ByteBuffer()
        for try await var chunk in self {
            guard result.readableBytes + chunk.readableBytes <= limit else {
                throw StorageError(.tooLarge, "The body is larger than the \(limit) bytes allowed here.")
            }
            result.writeBuffer(&chunk)
        }
        return result
    }
}
