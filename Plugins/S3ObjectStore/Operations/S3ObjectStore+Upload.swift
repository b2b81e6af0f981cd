public import NIOCore
import Tracing

extension S3ObjectStore {
    /// The part size ``uploadObject(_:from:partSize:contentType:)`` uses by default: 8 MiB (up to 78 GiB in 10 000
    /// parts).
    public static let defaultPartSize = 8 << 20

    /// Stores a stream of any length as object `key`, holding one part in memory: the chunks are gathered into parts
    /// of `partSize` bytes, each uploaded (and retried) before more of the stream is read. A body smaller than one
    /// part is stored with a single PUT. When anything fails the multipart upload is aborted, so no parts are left
    /// behind.
    ///
    /// ```swift
    /// let etag = try await store.uploadObject("videos/a.mp4", from: fileChunks)
    /// ```
    ///
    /// - Parameters:
    ///   - key: the object's key.
    ///   - body: the content, read once, chunk by chunk.
    ///   - partSize: 5 MiB to 5 GiB; a larger part means fewer requests and more memory.
    ///   - contentType: the object's `Content-Type`, if any.
    /// - Returns: the object's entity tag.
    /// - Throws: ``S3Error``, or what iterating `body` throws.
    @discardableResult
    public func uploadObject<Body: AsyncSequence>(
        _ key: String, from body: Body, partSize: Int = S3ObjectStore.defaultPartSize, contentType: String? = nil
    ) async throws -> String where Body.Element == ByteBuffer {
        try Self.validate(key: key)
        guard (S3MultipartUpload.minimumPartSize...S3MultipartUpload.maximumPartSize).contains(partSize) else {
            throw S3Error(.invalidArgument, "A part has 5 MiB to 5 GiB; \(partSize) bytes was asked for.")
        }
        return try await withSpan("S3.UploadObject", ofKind: .internal) { span in
            span.attributes["aws.s3.bucket"] = configuration.bucket
            span.attributes["aws.s3.key"] = key
            return try await upload(key, from: body, partSize: partSize, contentType: contentType, span: span)
        }
    }

    private func upload<Body: AsyncSequence>(
        _ key: String, from body: Body, partSize: Int, contentType: String?, span: any Span
    ) async throws -> String where Body.Element == ByteBuffer {
        var part = ByteBufferAllocator().buffer(capacity: partSize)
        var upload: S3MultipartUpload?
        var parts: [S3MultipartUpload.Part] = []
        do {
            for try await var chunk in body {
                while chunk.readableBytes > 0 {
                    var slice = chunk.readSlice(length: min(partSize - part.readableBytes, chunk.readableBytes))!
                    part.writeBuffer(&slice)
                    guard part.readableBytes == partSize else { continue }
                    if upload == nil { upload = try await createMultipartUpload(key, contentType: contentType) }
                    guard parts.count < S3MultipartUpload.maximumPartCount else {
                        throw S3Error(
                            .invalidArgument,
                            "\"\(key)\" needs more than 10 000 parts of \(partSize) bytes: use a larger part size.")
                    }
                    parts.append(try await uploadPart(upload!, number: parts.count + 1, body: part))
                    // A new buffer rather than `clear()`: the sent one may still be referenced by the HTTP client.
                    part = ByteBufferAllocator().buffer(capacity: partSize)
                }
            }
            guard let upload else {
                span.attributes["s3.parts"] = 0
                return try await putObject(key, body: part, contentType: contentType).etag ?? ""
            }
            if part.readableBytes > 0 {
                parts.append(try await uploadPart(upload, number: parts.count + 1, body: part))
            }
            span.attributes["s3.parts"] = parts.count
            if let etag = try await completeMultipartUpload(upload, parts: parts) { return etag }
            return try await headObject(key)?.etag ?? ""
        } catch {
            if let upload {
                // In a task of its own, so that a cancelled upload still frees its parts.
                await Task { try? await self.abortMultipartUpload(upload) }.value
            }
            throw error
        }
    }
}
