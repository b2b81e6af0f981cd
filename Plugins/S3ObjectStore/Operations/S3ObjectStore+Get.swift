import AsyncHTTPClient
import NIOCore
import NIOHTTP1

extension S3ObjectStore {
    /// Reads object `key`, whole or the bytes of `range`, as a stream: the call returns once the answer's head has
    /// arrived, and ``S3Object/body`` reads the content from the connection as it is iterated.
    ///
    /// A failure before the content starts (a `5xx`, a connection error) is retried; one while it streams is thrown
    /// by the body's iterator.
    ///
    /// - Returns: the object, or `nil` when there is no object with that key.
    /// - Throws: ``S3Error``: ``S3Error/Code/noSuchBucket`` when the bucket is missing, ``S3Error/Code/invalidRange``
    ///   when `range` starts past the end of the object, ...
    public func getObject(_ key: String, range: S3ByteRange? = nil) async throws -> S3Object? {
        try Self.validate(key: key)
        var request = S3Request(.getObject, .GET, key: key, retry: .idempotent, timeout: configuration.transferTimeout)
        if let range { request.headers.append(("range", range.headerValue)) }
        return try await perform(request) { response -> S3Object? in
            switch response.status.code {
            case 200, 206:
                let length = response.headers.first(name: "content-length").flatMap { Int64($0) }
                let contentRange = response.headers.first(name: "content-range").flatMap(Self.contentRange)
                let size = contentRange?.size ?? length ?? 0
                let info = Self.info(key: key, size: size, headers: response.headers)
                let body = S3ObjectBody(response.body, length: length, key: key, metrics: metrics)
                return S3Object(info: info, range: contentRange?.range, body: body)
            case 404:
                let error = await failure(for: response, request: request)
                guard error.code == .noSuchKey else { throw error }
                return nil
            default:
                throw await failure(for: response, request: request)
            }
        }
    }

    /// What S3 says of object `key` without its content (a HEAD).
    ///
    /// - Returns: the object's size, entity tag, date and type, or `nil` when there is no such object. A HEAD answer
    ///   has no body, so a missing bucket also answers `nil`: ``headBucket()`` tells the two apart.
    public func headObject(_ key: String) async throws -> S3ObjectInfo? {
        try Self.validate(key: key)
        let request = S3Request(.headObject, .HEAD, key: key, retry: .idempotent, timeout: configuration.timeout)
        return try await perform(request) { response -> S3ObjectInfo? in
            switch response.status.code {
            case 200:
                let size = response.headers.first(name: "content-length").flatMap { Int64($0) } ?? 0
                return Self.info(key: key, size: size, headers: response.headers)
            case 404:
                return nil
            default:
                throw await failure(for: response, request: request)
            }
        }
    }

    static func info(key: String, size: Int64, headers: HTTPHeaders) -> S3ObjectInfo {
        S3ObjectInfo(
            key: key, size: size, etag: headers.first(name: "etag") ?? "",
            lastModified: headers.first(name: "last-modified").flatMap(S3Dates.httpDate),
            contentType: headers.first(name: "content-type"))
    }

    /// `bytes 0-9/1234`: the bytes sent and the whole size (`nil` when `*`).
    static func contentRange(_ value: String) -> (range: ClosedRange<Int64>, size: Int64?)? {
        guard value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/")
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-").compactMap { Int64($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
        return (bounds[0]...bounds[1], Int64(parts[1]))
    }
}
