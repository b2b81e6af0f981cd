import Foundation
import InMemoryTracing
import MetricsTestKit
import NIOCore
import NIOHTTP1
import S3ObjectStore
import Testing
import Tracing

/// The retry and timeout edges, against ``ScriptedS3Server`` (a real server cannot be made to answer `503` on
/// demand); no test sleeps: the policy's `sleep` only records.
@Suite("S3ObjectStore retries: backoff with jitter, idempotent requests only")
struct RetryTests {
    static let logger = LiveCeph.logger

    /// Runs `body` with a store on a scripted server, its sleeps recorded.
    static func withScriptedStore(
        _ replies: [ScriptedS3Server.Reply], maxAttempts: Int = 4, metrics: TestMetrics = TestMetrics(),
        timeout: Duration = .seconds(30),
        _ body: (S3ObjectStore, ScriptedS3Server, SleepLog) async throws -> Void
    ) async throws {
        let server = try await ScriptedS3Server.start(replies)
        let sleeps = SleepLog()
        do {
            var configuration = try S3ObjectStore.Configuration(
                endpoint: URL(string: "http://127.0.0.1:\(server.port)")!, bucket: "scripted",
                credentials: S3Credentials(accessKeyID: "AKIASCRIPTED", secretAccessKey: "scripted-secret"))
            configuration.retry = S3RetryPolicy(maxAttempts: maxAttempts, sleep: sleeps.record, random: { 0.5 })
            configuration.timeout = timeout
            try await S3ObjectStore.withObjectStore(
                configuration: configuration, logger: logger, metricsFactory: metrics
            ) { store in try await body(store, server, sleeps) }
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test("503 SlowDown twice, then the object: retried after 50 and 100 ms, each attempt signed anew")
    func slowDownIsRetried() async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        try await Self.withScriptedStore(
            [
                .error(.serviceUnavailable, "SlowDown"), .error(.serviceUnavailable, "SlowDown"),
                .respond(.ok, body: "hi"),
            ],
            metrics: metrics
        ) { store, server, sleeps in
            let object = try await withTracer(tracer) { try await store.getObject("k") }
            #expect(String(buffer: try await #require(object).body.collect(upTo: 10)) == "hi")
            #expect(sleeps.delays == [.milliseconds(50), .milliseconds(100)])
            #expect(server.requests.count == 3)
            #expect(server.requests.allSatisfy { $0.uri == "/scripted/k" && $0.headers["authorization"].count == 1 })
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_retries_total", dimensions: [("operation", "GetObject"), ("reason", "slow_down")])
                    == 2)
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_requests_total", dimensions: [("operation", "GetObject"), ("status", "5xx")]) == 2)
            let span = try #require(tracer.finishedSpans.first { $0.operationName == "S3.GetObject" })
            #expect(span.events.filter { $0.name == "retry" }.count == 2)
            #expect(span.status == nil)
        }
    }

    @Test("Retry-After is honoured, up to the longest wait")
    func retryAfter() async throws {
        try await Self.withScriptedStore([
            .error(.serviceUnavailable, "SlowDown", headers: [("Retry-After", "2")]),
            .error(.serviceUnavailable, "SlowDown", headers: [("Retry-After", "60")]), .respond(.ok),
        ]) { store, _, sleeps in
            try await store.deleteObject("k")
            #expect(sleeps.delays == [.seconds(2), .seconds(5)])
        }
    }

    @Test("a 503 SlowDown every time: slowDown after the last attempt")
    func persistentSlowDown() async throws {
        try await Self.withScriptedStore(Array(repeating: .error(.serviceUnavailable, "SlowDown"), count: 4)) {
            store, server, sleeps in
            let error = await #expect(throws: S3Error.self) { _ = try await store.listObjects() }
            #expect(error?.code == .slowDown)
            #expect(error?.status == 503)
            #expect(server.requests.count == 4)
            #expect(sleeps.delays == [.milliseconds(50), .milliseconds(100), .milliseconds(200)])
        }
    }

    @Test("500 retried for an idempotent PUT, not for CreateMultipartUpload; SlowDown retried for both")
    func serverErrorsRetriedOnlyWhenIdempotent() async throws {
        try await Self.withScriptedStore([
            .error(.internalServerError, "InternalError"), .respond(.ok, headers: [("ETag", "\"e\"")]),
        ]) {
            store, server, _ in
            let answer = try await store.putObject("k", body: ByteBuffer(string: "x"))
            #expect(answer == .stored(etag: "\"e\""))
            #expect(server.requests.count == 2)
            #expect(server.requests.allSatisfy { $0.bodyLength == 1 }, "the body is sent again")
        }
        try await Self.withScriptedStore([.error(.internalServerError, "InternalError")]) { store, server, sleeps in
            let error = await #expect(throws: S3Error.self) { _ = try await store.createMultipartUpload("k") }
            #expect(error?.code == .serverError)
            #expect(error?.requestID == "req-InternalError")
            #expect(server.requests.count == 1)
            #expect(sleeps.delays.isEmpty)
        }
        let created = """
            <?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>scripted</Bucket>\
            <Key>k</Key><UploadId>upload-1</UploadId></InitiateMultipartUploadResult>
            """
        try await Self.withScriptedStore([.error(.serviceUnavailable, "SlowDown"), .respond(.ok, body: created)]) {
            store, server, _ in
            let answer = try await store.createMultipartUpload("k").uploadID
            #expect(answer == "upload-1")
            #expect(server.requests.count == 2)
            #expect(server.requests.first?.uri == "/scripted/k?uploads")
        }
    }

    @Test("a conditional PUT is retried on SlowDown only; a streamed PUT never")
    func conditionalAndStreamedPuts() async throws {
        try await Self.withScriptedStore([.error(.badGateway, "BadGateway")]) { store, server, _ in
            await #expect(throws: S3Error.self) {
                _ = try await store.putObject("k", body: ByteBuffer(string: "x"), condition: .ifNoneMatch)
            }
            #expect(server.requests.count == 1)
            #expect(server.requests.first?.headers["if-none-match"] == ["*"])
        }
        try await Self.withScriptedStore([.error(.serviceUnavailable, "SlowDown"), .respond(.preconditionFailed)]) {
            store, server, _ in
            let outcome = try await store.putObject("k", body: ByteBuffer(string: "x"), condition: .ifMatch("\"abc\""))
            #expect(outcome == .preconditionFailed)
            #expect(server.requests.map { $0.headers["if-match"] } == [["abc"], ["abc"]])
        }
        try await Self.withScriptedStore([.error(.serviceUnavailable, "SlowDown")]) { store, server, _ in
            let error = await #expect(throws: S3Error.self) {
                _ = try await store.putObject("k", body: Chunks([ByteBuffer(string: "abc")]), length: 3)
            }
            #expect(error?.code == .slowDown)
            #expect(server.requests.count == 1)
            #expect(server.requests.first?.headers["x-amz-content-sha256"] == ["UNSIGNED-PAYLOAD"])
        }
    }

    @Test("a dropped connection is retried for a GET")
    func droppedConnection() async throws {
        let metrics = TestMetrics()
        try await Self.withScriptedStore([.dropConnection, .respond(.ok, body: "after")], metrics: metrics) {
            store, server, sleeps in
            let object = try #require(try await store.getObject("k"))
            #expect(String(buffer: try await object.body.collect(upTo: 10)) == "after")
            #expect(server.requests.count == 2)
            #expect(sleeps.delays.count == 1)
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_requests_total", dimensions: [("operation", "GetObject"), ("status", "error")]) == 1
            )
        }
    }

    @Test("a server that never answers: timeout")
    func stalledServer() async throws {
        try await Self.withScriptedStore([.stall], maxAttempts: 1, timeout: .milliseconds(300)) { store, _, _ in
            let error = await #expect(throws: S3Error.self) { _ = try await store.headObject("k") }
            #expect(error?.code == .timeout)
        }
    }

    @Test("a bucket in another region: wrongRegion, naming it")
    func wrongRegion() async throws {
        try await Self.withScriptedStore([
            .error(.movedPermanently, "PermanentRedirect", headers: [("x-amz-bucket-region", "eu-west-1")])
        ]) { store, _, _ in
            let error = await #expect(throws: S3Error.self) { _ = try await store.listObjects() }
            #expect(error?.code == .wrongRegion)
            #expect(error?.message.contains("set the region to eu-west-1") == true)
        }
    }

    @Test("CompleteMultipartUpload answered 200 with an error document throws it")
    func completionErrorInA200() async throws {
        try await Self.withScriptedStore([.error(.ok, "InternalError")]) { store, _, _ in
            let upload = S3MultipartUpload(key: "k", uploadID: "u")
            let error = await #expect(throws: S3Error.self) {
                _ = try await store.completeMultipartUpload(upload, parts: [.init(number: 1, etag: "\"e\"")])
            }
            #expect(error?.code == .serverError)
            #expect(error?.s3Code == "InternalError")
        }
    }
}
