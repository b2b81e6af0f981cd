import AsyncHTTPClient
import Metrics
public import NIOCore

/// The content of an object as a GET returns it: an `AsyncSequence` of chunks read from the connection as it is
/// iterated, so memory stays flat whatever the size. Iterate it once, to the end or not at all (an abandoned body
/// closes its connection).
///
/// A connection that breaks while the body streams throws ``S3Error/Code/connectionFailed``: read the rest with a
/// range from the number of bytes received.
public struct S3ObjectBody: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    public typealias Failure = any Error

    /// The number of bytes the body holds (the range's for a ranged GET), when the server sent `Content-Length`.
    public let length: Int64?
    private let base: HTTPClientResponse.Body
    private let key: String
    private let metrics: S3Metrics

    init(_ base: HTTPClientResponse.Body, length: Int64?, key: String, metrics: S3Metrics) {
        self.base = base
        self.length = length
        self.key = key
        self.metrics = metrics
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), key: key, metrics: metrics)
    }

    /// Collects the whole body into one buffer, failing with ``S3Error/Code/invalidArgument`` when it is larger than
    /// `limit` bytes. For small objects only; stream anything else.
    public func collect(upTo limit: Int) async throws -> ByteBuffer {
        if let length, length > limit {
            throw S3Error(
                .invalidArgument, "Object \"\(key)\" has \(length) bytes, more than the \(limit) allowed here.")
        }
        var result = ByteBuffer()
        for try await var chunk in self {
            guard result.readableBytes + chunk.readableBytes <= limit else {
                throw S3Error(.invalidArgument, "Object \"\(key)\" has more than the \(limit) bytes allowed here.")
            }
            result.writeBuffer(&chunk)
        }
        return result
    }

    /// Iterates an ``S3ObjectBody``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: HTTPClientResponse.Body.AsyncIterator
        private let key: String
        private let metrics: S3Metrics
        private var received: Int64 = 0

        init(base: HTTPClientResponse.Body.AsyncIterator, key: String, metrics: S3Metrics) {
            self.base = base
            self.key = key
            self.metrics = metrics
        }

        public mutating func next() async throws -> ByteBuffer? {
            do {
                guard let chunk = try await base.next() else { return nil }
                received += Int64(chunk.readableBytes)
                metrics.bytesReceived.increment(by: chunk.readableBytes)
                return chunk
            } catch let error as CancellationError {
                throw error
            } catch {
                throw S3Error(
                    .connectionFailed,
                    "The connection broke while reading object \"\(key)\" after \(received) bytes: read the rest "
                        + "with a range from \(received).", underlying: error)
            }
        }
    }
}
