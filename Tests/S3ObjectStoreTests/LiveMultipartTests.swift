import Crypto
import InMemoryTracing
import MetricsTestKit
import NIOCore
import S3ObjectStore
import Testing
import Tracing

@Suite("S3ObjectStore on Ceph's RADOS Gateway: multipart uploads")
struct LiveMultipartTests {
    static let partSize = S3MultipartUpload.minimumPartSize

    /// Uploads `body` in 5 MiB parts with `tracer` as the task's tracer.
    static func upload(_ body: GeneratedBody, to store: S3ObjectStore, tracer: InMemoryTracer) async throws -> String {
        try await withTracer(tracer) { try await store.uploadObject("big.bin", from: body, partSize: partSize) }
    }

    @Test("12 MiB streamed in 5 MiB parts, never more than one part held, read back streamed")
    func streamedUploadWithFlatMemory() async throws {
        let metrics = TestMetrics()
        try await LiveCeph.withBucket("multipart", metrics: metrics) { store in
            let size = 12 << 20 + 12_345
            let body = GeneratedBody(size: size) { produced in
                // Bytes read from the stream but not yet stored in an answered part: at most one part and a chunk.
                let stored = Int(
                    metrics.counterTotal(
                        label: "wopi_s3_requests_total", dimensions: [("operation", "UploadPart"), ("status", "2xx")]))
                #expect(produced - stored * Self.partSize <= Self.partSize + (64 << 10))
            }
            let tracer = InMemoryTracer()
            let etag = try await Self.upload(body, to: store, tracer: tracer)
            #expect(etag.hasSuffix("-3\""), "three parts: \(etag)")
            let upload = try #require(tracer.finishedSpans.first { $0.operationName == "S3.UploadObject" })
            #expect(upload.attributes["s3.parts"]?.toSpanAttribute() == .int64(3))
            let children = tracer.finishedSpans.filter { $0.spanContext.parentSpanID == upload.spanContext.spanID }
            #expect(
                children.map(\.operationName) == [
                    "S3.CreateMultipartUpload", "S3.UploadPart", "S3.UploadPart", "S3.UploadPart",
                    "S3.CompleteMultipartUpload", "S3.HeadObject",
                ] || children.count == 5, "\(children.map(\.operationName))")
            let info = try #require(try await store.headObject("big.bin"))
            #expect(info.size == Int64(size))
            #expect(info.etag == etag)
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_requests_total", dimensions: [("operation", "UploadPart"), ("status", "2xx")]) == 3)
            #expect(metrics.counterTotal(label: "wopi_s3_bytes_sent_total") >= Int64(size))

            let object = try #require(try await store.getObject("big.bin"))
            var digest = SHA256()
            var received = 0
            var largestChunk = 0
            for try await chunk in object.body {
                digest.update(data: Array(chunk.readableBytesView))
                received += chunk.readableBytes
                largestChunk = max(largestChunk, chunk.readableBytes)
            }
            #expect(received == size)
            #expect(Hex.string(digest.finalize()) == body.sha256)
            #expect(largestChunk < 1 << 20, "the body arrives in chunks, not whole")
            #expect(metrics.counterTotal(label: "wopi_s3_bytes_received_total") == Int64(size))
        }
    }

    @Test("a body smaller than a part is one PUT")
    func smallBodyIsOnePut() async throws {
        let metrics = TestMetrics()
        try await LiveCeph.withBucket("small", metrics: metrics) { store in
            let body = GeneratedBody(size: 100_000)
            let etag = try await store.uploadObject("small.bin", from: body)
            #expect(!etag.hasSuffix("-1\"") && etag.count == 34)
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_requests_total", dimensions: [("operation", "PutObject"), ("status", "2xx")]) == 1)
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_requests_total",
                    dimensions: [("operation", "CreateMultipartUpload"), ("status", "2xx")]) == 0)
        }
    }

    @Test("create, upload parts out of order, complete; Ceph's completion ETag")
    func manualMultipart() async throws {
        try await LiveCeph.withBucket("manual") { store in
            let upload = try await store.createMultipartUpload("manual.bin", contentType: "application/x-test")
            let second = try await store.uploadPart(upload, number: 2, body: ByteBuffer(string: "tail"))
            let first = try await store.uploadPart(
                upload, number: 1, body: ByteBuffer(repeating: 0x61, count: Self.partSize))
            let completed = try await store.completeMultipartUpload(upload, parts: [second, first])
            let info = try #require(try await store.headObject("manual.bin"))
            #expect(info.size == Int64(Self.partSize + 4))
            #expect(info.contentType == "application/x-test")
            #expect(info.etag.hasSuffix("-2\""))
            // Ceph 16 answers CompleteMultipartUpload with an empty ETag; AWS sends the object's.
            #expect(completed == nil || completed == info.etag)
            let tail = try #require(try await store.getObject("manual.bin", range: .last(4)))
            #expect(String(buffer: try await tail.body.collect(upTo: 10)) == "tail")
        }
    }

    @Test("an aborted upload is gone; a part under 5 MiB but the last is refused")
    func abortAndTooSmall() async throws {
        try await LiveCeph.withBucket("abort") { store in
            let upload = try await store.createMultipartUpload("aborted.bin")
            _ = try await store.uploadPart(upload, number: 1, body: ByteBuffer(string: "x"))
            try await store.abortMultipartUpload(upload)
            try await store.abortMultipartUpload(upload)  // again: fine
            let gone = await #expect(throws: S3Error.self) {
                _ = try await store.uploadPart(upload, number: 2, body: ByteBuffer(string: "y"))
            }
            #expect(gone?.code == .noSuchUpload)
            #expect(try await store.headObject("aborted.bin") == nil)

            let small = try await store.createMultipartUpload("small-parts.bin")
            let parts = [
                try await store.uploadPart(small, number: 1, body: ByteBuffer(string: "too small")),
                try await store.uploadPart(small, number: 2, body: ByteBuffer(string: "last")),
            ]
            let refused = await #expect(throws: S3Error.self) {
                _ = try await store.completeMultipartUpload(small, parts: parts)
            }
            #expect(refused?.code == .rejected)
            #expect(refused?.s3Code == "EntityTooSmall")
            try await store.abortMultipartUpload(small)
            await #expect(throws: S3Error.self) {
                _ = try await store.uploadPart(small, number: 10_001, body: ByteBuffer(string: "z"))
            }
        }
    }

    @Test("a stream that fails midway aborts the upload and rethrows its error")
    func failingStreamAborts() async throws {
        struct SourceFailed: Error {}
        let metrics = TestMetrics()
        try await LiveCeph.withBucket("failing", metrics: metrics) { store in
            let body = GeneratedBody(size: 12 << 20) { produced in
                if produced >= 6 << 20 { throw SourceFailed() }
            }
            await #expect(throws: SourceFailed.self) {
                _ = try await store.uploadObject("failed.bin", from: body, partSize: Self.partSize)
            }
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_requests_total",
                    dimensions: [("operation", "AbortMultipartUpload"), ("status", "2xx")]) == 1)
            let leftover = try await store.headObject("failed.bin")
            #expect(leftover == nil)
        }
    }
}
