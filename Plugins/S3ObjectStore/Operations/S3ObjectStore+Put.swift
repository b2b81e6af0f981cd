import AsyncHTTPClient
public import NIOCore
import NIOHTTP1

extension S3ObjectStore {
    /// Stores `body` as object `key` (one PUT; the body is signed with its SHA-256 and retried when safe).
    ///
    /// With a `condition`, the body is stored only when it holds (`If-None-Match: *` creates only, `If-Match`
    /// replaces only that version), and ``S3PutOutcome/preconditionFailed`` tells it did not; such a PUT is retried
    /// only on `503 SlowDown`, since a lost answer to a stored body would make its retry fail the condition.
    ///
    /// For bodies that are not in memory use ``putObject(_:body:length:contentType:condition:)`` or
    /// ``uploadObject(_:from:partSize:contentType:)``.
    ///
    /// - Returns: ``S3PutOutcome/stored(etag:)`` with the new entity tag, or ``S3PutOutcome/preconditionFailed``.
    /// - Throws: ``S3Error`` (``S3Error/Code/noSuchBucket``, ``S3Error/Code/invalidCredentials``, ...).
    @discardableResult
    public func putObject(
        _ key: String, body: ByteBuffer, contentType: String? = nil, condition: S3WriteCondition? = nil
    ) async throws -> S3PutOutcome {
        try Self.validate(key: key)
        var request = S3Request(
            .putObject, .PUT, key: key, retry: condition == nil ? .idempotent : .unprocessedOnly,
            timeout: configuration.transferTimeout)
        request.body = .bytes(body)
        addPutHeaders(&request, contentType: contentType, condition: condition)
        return try await perform(request) { try await putOutcome($0, request: request) }
    }

    /// Stores `length` bytes streamed from `body` as object `key`, in one PUT that is sent once (never retried: a
    /// stream is read once) and signed `UNSIGNED-PAYLOAD` (the body is not hashed first). Up to 5 GiB; larger, or of
    /// unknown length, use ``uploadObject(_:from:partSize:contentType:)``.
    ///
    /// - Throws: ``S3Error`` as ``putObject(_:body:contentType:condition:)``; the HTTP client fails the request
    ///   when `body` yields another number of bytes than `length`.
    @discardableResult
    public func putObject<Body: AsyncSequence & Sendable>(
        _ key: String, body: Body, length: Int64, contentType: String? = nil, condition: S3WriteCondition? = nil
    ) async throws -> S3PutOutcome where Body.Element == ByteBuffer {
        try Self.validate(key: key)
        guard length >= 0 else { throw S3Error(.invalidArgument, "A body's length is 0 or more; \(length) was given.") }
        var request = S3Request(.putObject, .PUT, key: key, retry: .never, timeout: configuration.transferTimeout)
        request.body = .stream(.stream(body, length: .known(length)), length: length)
        addPutHeaders(&request, contentType: contentType, condition: condition)
        return try await perform(request) { try await putOutcome($0, request: request) }
    }

    private func addPutHeaders(_ request: inout S3Request, contentType: String?, condition: S3WriteCondition?) {
        if let contentType { request.headers.append(("content-type", contentType)) }
        if let condition { request.headers.append(condition.header) }
    }

    private func putOutcome(_ response: HTTPClientResponse, request: S3Request) async throws -> S3PutOutcome {
        switch response.status.code {
        case 200..<300:
            _ = try? await response.body.collect(upTo: 64 << 10)
            return .stored(etag: response.headers.first(name: "etag") ?? "")
        case 412:
            _ = try? await response.body.collect(upTo: 64 << 10)
            return .preconditionFailed
        default:
            throw await failure(for: response, request: request)
        }
    }
}
