import AsyncHTTPClient
import Foundation
import InMemoryTracing
import MetricsTestKit
import NIOCore
import NIOHTTP1
import S3ObjectStore
import Testing
import Tracing
import WOPIClusterTestSupport

@Suite("S3ObjectStore on Ceph's RADOS Gateway: errors, presigned URLs, spans and metrics")
struct LiveErrorTests {
    @Test("a wrong secret: invalidCredentials, saying which variables to check, never the secret")
    func wrongSecret() async throws {
        let gateway = try await CephGateway.shared.value
        let bucket = LiveCeph.bucketName("secret")
        try await S3ObjectStore.withObjectStore(
            configuration: try LiveCeph.configuration(gateway, bucket: bucket), logger: LiveCeph.logger
        ) { try await $0.createBucket() }
        let wrong = try LiveCeph.configuration(gateway, bucket: bucket) {
            $0.credentials.secretAccessKey = "not-the-secret-0123456789"
        }
        try await S3ObjectStore.withObjectStore(configuration: wrong, logger: LiveCeph.logger) { store in
            for attempt in [
                { _ = try await store.putObject("k", body: ByteBuffer(string: "x")) },
                { _ = try await store.getObject("k") },
                { _ = try await store.listObjects() },
            ] as [() async throws -> Void] {
                let error = await #expect(throws: S3Error.self) { try await attempt() }
                #expect(error?.code == .invalidCredentials)
                #expect(error?.s3Code == "SignatureDoesNotMatch")
                #expect(error?.status == 403)
                #expect(error?.message.contains("AWS_SECRET_ACCESS_KEY") == true)
                #expect(error?.description.contains("not-the-secret") == false)
                #expect(error?.description.contains(gateway.accessKeyID) == false)
            }
            // A HEAD answer has no body: the refusal cannot say why.
            let head = await #expect(throws: S3Error.self) { _ = try await store.headObject("k") }
            #expect(head?.code == .accessDenied)
            #expect(head?.status == 403)
        }
        let unknownKey = try LiveCeph.configuration(gateway, bucket: bucket) {
            $0.credentials.accessKeyID = "AKIANOSUCHKEY0000000"
        }
        try await S3ObjectStore.withObjectStore(configuration: unknownKey, logger: LiveCeph.logger) { store in
            let error = await #expect(throws: S3Error.self) { _ = try await store.getObject("k") }
            #expect(error?.code == .invalidCredentials)
            #expect(error?.s3Code == "InvalidAccessKeyId")
            #expect(error?.message.contains("AWS_ACCESS_KEY_ID") == true)
        }
    }

    @Test("a missing bucket: noSuchBucket, saying to create it; headBucket false")
    func missingBucket() async throws {
        let gateway = try await CephGateway.shared.value
        let configuration = try LiveCeph.configuration(gateway, bucket: LiveCeph.bucketName("missing"))
        try await S3ObjectStore.withObjectStore(configuration: configuration, logger: LiveCeph.logger) { store in
            #expect(try await store.headBucket() == false)
            for attempt in [
                { _ = try await store.putObject("k", body: ByteBuffer(string: "x")) },
                { _ = try await store.getObject("k") },
                { _ = try await store.listObjects() },
                { try await store.deleteObject("k") },
                { _ = try await store.createMultipartUpload("k") },
            ] as [() async throws -> Void] {
                let error = await #expect(throws: S3Error.self) { try await attempt() }
                #expect(error?.code == .noSuchBucket)
                #expect(error?.message.contains("create it") == true)
                #expect(error?.requestID?.isEmpty == false)
            }
            #expect(try await store.headObject("k") == nil)
            #expect(try await store.createBucket() == .created)
            #expect(try await store.headBucket())
            let again = try await store.createBucket()
            #expect(again == .alreadyOwned || again == .created, "Ceph may answer 200 to a bucket one owns")
        }
    }

    @Test("a presigned URL reads the object without credentials, and a tampered one is refused")
    func presignedDownload() async throws {
        try await LiveCeph.withBucket("presign") { store in
            try await store.putObject("shared/report 1.txt", body: ByteBuffer(string: "for the browser"))
            let url = try store.presignedURL(
                for: "shared/report 1.txt", expires: .seconds(300),
                responseContentDisposition: "attachment; filename=\"report 1.txt\"")
            #expect(!url.absoluteString.contains(store.configuration.credentials.secretAccessKey))
            let plain = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                let response = try await plain.execute(
                    HTTPClientRequest(url: url.absoluteString), timeout: .seconds(30))
                #expect(response.status == .ok)
                #expect(response.headers.first(name: "content-disposition") == "attachment; filename=\"report 1.txt\"")
                #expect(String(buffer: try await response.body.collect(upTo: 1024)) == "for the browser")
                let tampered = url.absoluteString.replacingOccurrences(
                    of: "X-Amz-Expires=300", with: "X-Amz-Expires=301")
                let refused = try await plain.execute(HTTPClientRequest(url: tampered), timeout: .seconds(30))
                #expect(refused.status == .forbidden)
                _ = try await refused.body.collect(upTo: 64 << 10)
            } catch {
                try await plain.shutdown()
                throw error
            }
            try await plain.shutdown()
        }
    }

    @Test("each operation is a client span S3.<Operation>, and its requests are counted and timed")
    func spansAndMetrics() async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        try await LiveCeph.withBucket("observed", metrics: metrics) { store in
            try await withTracer(tracer) {
                try await store.putObject("seen", body: ByteBuffer(string: "12345"))
                _ = try await store.getObject("seen")?.body.collect(upTo: 10)
                _ = try await store.getObject("unseen")
            }
            let spans = tracer.finishedSpans.filter { $0.kind == .client }
            #expect(spans.map(\.operationName) == ["S3.PutObject", "S3.GetObject", "S3.GetObject"])
            let put = try #require(spans.first)
            #expect(put.attributes["rpc.system"]?.toSpanAttribute() == .string("aws-api"))
            #expect(put.attributes["rpc.method"]?.toSpanAttribute() == .string("PutObject"))
            #expect(put.attributes["aws.s3.bucket"]?.toSpanAttribute() == .string(store.configuration.bucket))
            #expect(put.attributes["aws.s3.key"]?.toSpanAttribute() == .string("seen"))
            #expect(put.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
            #expect(spans.last?.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(404))
            var attributes: [String] = []
            for span in spans { span.attributes.forEach { key, value in attributes.append("\(key)=\(value)") } }
            #expect(!attributes.joined().contains(store.configuration.credentials.secretAccessKey))
            #expect(!attributes.joined().contains("Signature"))

            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_requests_total", dimensions: [("operation", "PutObject"), ("status", "2xx")]) == 1)
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_requests_total", dimensions: [("operation", "GetObject"), ("status", "4xx")]) == 1)
            let timer = try metrics.expectTimer("wopi_s3_request_duration_seconds", [("operation", "GetObject")])
            #expect(timer.values.count == 2)
            #expect(metrics.counterTotal(label: "wopi_s3_bytes_received_total") == 5)
        }
    }

    @Test("nothing listens on the endpoint: connectionFailed within the connect timeout, not tried again")
    func unreachableEndpoint() async throws {
        let metrics = TestMetrics()
        let sleeps = SleepLog()
        var configuration = try S3ObjectStore.Configuration(
            endpoint: URL(string: "http://127.0.0.1:\(try ClosedPort.find())")!, bucket: "nowhere",
            credentials: S3Credentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: "secret"))
        configuration.retry = S3RetryPolicy(maxAttempts: 3, sleep: sleeps.record, random: { 0.5 })
        // AsyncHTTPClient retries a refused connection until its connect timeout: a short one keeps the test short.
        var http = S3ObjectStore.recommendedHTTPClientConfiguration
        http.timeout.connect = .milliseconds(200)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
        do {
            let store = S3ObjectStore(
                configuration: configuration, httpClient: client, logger: LiveCeph.logger, metricsFactory: metrics)
            let error = await #expect(throws: S3Error.self) { _ = try await store.headObject("k") }
            #expect(error?.code == .connectionFailed)
            #expect(error?.message.contains("1 attempt(s)") == true)
            #expect(sleeps.delays.isEmpty, "the client already retried connecting for its connect timeout")
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_retries_total", dimensions: [("operation", "HeadObject"), ("reason", "connection")])
                    == 0)
            #expect(
                metrics.counterTotal(
                    label: "wopi_s3_errors_total",
                    dimensions: [("operation", "HeadObject"), ("code", "connectionFailed")])
                    == 1)
        }
        try await client.shutdown()
    }
}
