import AsyncHTTPClient
public import NIOCore
import NIOHTTP1

extension S3ObjectStore {
    /// Starts a multipart upload of `key` (CreateMultipartUpload). Give it parts with
    /// ``uploadPart(_:number:body:)`` and end it with ``completeMultipartUpload(_:parts:)`` or
    /// ``abortMultipartUpload(_:)``; ``uploadObject(_:from:partSize:contentType:)`` does all of it for a stream.
    public func createMultipartUpload(_ key: String, contentType: String? = nil) async throws -> S3MultipartUpload {
        try Self.validate(key: key)
        var request = S3Request(
            .createMultipartUpload, .POST, key: key, retry: .unprocessedOnly, timeout: configuration.timeout)
        request.query = [("uploads", "")]
        if let contentType { request.headers.append(("content-type", contentType)) }
        return try await perform(request) { response in
            guard response.status.code == 200 else { throw await failure(for: response, request: request) }
            let root = try await Self.xml(response, operation: request.operation)
            guard let id = root.text(of: "UploadId"), !id.isEmpty else {
                throw S3Error(.invalidResponse, "CreateMultipartUpload of \"\(key)\" answered without an UploadId.")
            }
            return S3MultipartUpload(key: key, uploadID: id)
        }
    }

    /// Uploads part `number` (1 to 10 000) of `upload`: 5 MiB to 5 GiB, but the last part, which may be smaller.
    /// Uploading a number again replaces that part, so the request is retried like a PUT.
    ///
    /// - Returns: the part with its entity tag, for ``completeMultipartUpload(_:parts:)``.
    public func uploadPart(_ upload: S3MultipartUpload, number: Int, body: ByteBuffer) async throws
        -> S3MultipartUpload.Part
    {
        guard (1...S3MultipartUpload.maximumPartCount).contains(number) else {
            throw S3Error(.invalidArgument, "A part number is 1 to 10 000; \(number) was given.")
        }
        var request = S3Request(
            .uploadPart, .PUT, key: upload.key, retry: .idempotent, timeout: configuration.transferTimeout)
        request.query = [("partNumber", String(number)), ("uploadId", upload.uploadID)]
        request.body = .bytes(body)
        return try await perform(request) { response in
            guard response.status.code == 200 else { throw await failure(for: response, request: request) }
            _ = try? await response.body.collect(upTo: 64 << 10)
            guard let etag = response.headers.first(name: "etag"), !etag.isEmpty else {
                throw S3Error(.invalidResponse, "UploadPart \(number) of \"\(upload.key)\" answered without an ETag.")
            }
            return S3MultipartUpload.Part(number: number, etag: etag)
        }
    }

    /// Completes `upload` from `parts` (in part-number order): the object then exists whole.
    ///
    /// - Returns: the object's entity tag, or `nil` when the server did not send one (Ceph 16 answers an empty
    ///   `ETag`; ``headObject(_:)`` has it).
    /// - Throws: ``S3Error`` (``S3Error/Code/noSuchUpload``; S3 may answer `200` with an error document, which is
    ///   thrown too).
    @discardableResult
    public func completeMultipartUpload(_ upload: S3MultipartUpload, parts: [S3MultipartUpload.Part]) async throws
        -> String?
    {
        guard !parts.isEmpty else {
            throw S3Error(.invalidArgument, "A multipart upload is completed from one part or more; none was given.")
        }
        var xml = S3XMLWriter()
        xml.open("CompleteMultipartUpload", namespaced: true)
        for part in parts.sorted(by: { $0.number < $1.number }) {
            xml.open("Part")
            xml.element("PartNumber", String(part.number))
            xml.element("ETag", part.etag)
            xml.close("Part")
        }
        xml.close("CompleteMultipartUpload")
        var request = S3Request(
            .completeMultipartUpload, .POST, key: upload.key, retry: .unprocessedOnly, timeout: configuration.timeout)
        request.query = [("uploadId", upload.uploadID)]
        request.headers = [("content-type", "application/xml")]
        request.body = .bytes(ByteBuffer(string: xml.text))
        return try await perform(request) { response in
            guard response.status.code == 200 else { throw await failure(for: response, request: request) }
            let root = try await Self.xml(response, operation: request.operation)
            if root.name == "Error" {
                throw failure(status: 200, body: S3ErrorBody(root), headers: response.headers, request: request)
            }
            let etag = root.text(of: "ETag") ?? ""
            return etag.isEmpty ? nil : etag
        }
    }

    /// Aborts `upload`, freeing its parts; aborting an upload that no longer exists succeeds.
    public func abortMultipartUpload(_ upload: S3MultipartUpload) async throws {
        var request = S3Request(
            .abortMultipartUpload, .DELETE, key: upload.key, retry: .idempotent, timeout: configuration.timeout)
        request.query = [("uploadId", upload.uploadID)]
        try await perform(request) { response in
            switch response.status.code {
            case 200..<300:
                _ = try? await response.body.collect(upTo: 64 << 10)
            default:
                let error = await failure(for: response, request: request)
                guard error.code == .noSuchUpload else { throw error }
            }
        }
    }
}
