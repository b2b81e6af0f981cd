import AsyncHTTPClient
import NIOCore

extension S3ObjectStore {
    /// Reads an XML answer (``S3XMLElement/maximumBodySize`` at most).
    static func xml(_ response: HTTPClientResponse, operation: S3Operation) async throws -> S3XMLElement {
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: S3XMLElement.maximumBodySize)
        } catch {
            throw S3Error(
                .invalidResponse,
                "The answer to \(operation.rawValue) could not be read whole (over "
                    + "\(S3XMLElement.maximumBodySize) bytes, or the connection broke).", underlying: error)
        }
        return try S3XMLElement.parse(Array(body.readableBytesView))
    }
}
