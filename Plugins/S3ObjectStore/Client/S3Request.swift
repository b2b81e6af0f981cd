import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One S3 API request before it is signed: the operation, the object (or the bucket itself), the query, the headers
/// to sign, the body, and whether sending it twice is safe.
struct S3Request: Sendable {
    /// When a failed request may be sent again (``S3RetryPolicy``).
    enum Retry: Sendable {
        /// Sending it twice has the effect of sending it once: retried on `5xx`, `503 SlowDown` and connection
        /// errors.
        case idempotent
        /// Retried only on `503 SlowDown`, which S3 answers before doing anything.
        case unprocessedOnly
        /// Never retried (a streamed body can be sent once).
        case never
    }

    /// A request body.
    enum Body: Sendable {
        case none
        /// Held in memory: signed with its SHA-256 and replayable.
        case bytes(ByteBuffer)
        /// Streamed with a known length: signed `UNSIGNED-PAYLOAD`, sent once.
        case stream(HTTPClientRequest.Body, length: Int64)
    }

    var operation: S3Operation
    var method: HTTPMethod
    /// The object's key, or `nil` for a request to the bucket itself.
    var key: String?
    var query: [(name: String, value: String)] = []
    /// Headers signed with the request (`range`, `if-none-match`, `content-type`, `content-md5`, ...).
    var headers: [(name: String, value: String)] = []
    var body: Body = .none
    var retry: Retry
    var timeout: Duration

    init(_ operation: S3Operation, _ method: HTTPMethod, key: String?, retry: Retry, timeout: Duration) {
        self.operation = operation
        self.method = method
        self.key = key
        self.retry = retry
        self.timeout = timeout
    }

    /// The number of body bytes sent.
    var bodyLength: Int64 {
        switch body {
        case .none: 0
        case .bytes(let buffer): Int64(buffer.readableBytes)
        case .stream(_, let length): length
        }
    }
}
