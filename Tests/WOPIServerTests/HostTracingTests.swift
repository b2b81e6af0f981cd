import Crypto
import Foundation
import HTTPTypes
import InMemoryTracing
import NIOCore
import Testing
import Tracing
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// A WOPI request is a server span named by its operation, a child of the trace context its headers carry, with the
/// operation's attributes and never its token.
@Suite struct HostTracingTests {
    @Test func checkFileInfoIsAServerSpanChildOfTheCallersContext() async throws {
        let wopi = TestHost()
        let file = try await wopi.seedFile("a.docx", "x")
        // The in-memory tracer's own propagation keys stand for `traceparent`.
        let headers = [
            InMemoryTracer.traceIDKey: "trace-1", InMemoryTracer.spanIDKey: "editor-span",
            "X-WOPI-CorrelationID": "corr-7", "X-COOL-WOPI-ServerId": "cool-3",
        ]

        let tracer = InMemoryTracer()
        let response = await withTracer(tracer) { await wopi.send(.get, file.id, "", headers) }
        #expect(response.status == .ok)
        let span = try #require(tracer.finishedSpans.first { $0.kind == .server })
        #expect(span.operationName == "CheckFileInfo")
        #expect(span.kind == .server)
        #expect(span.traceID == "trace-1")
        #expect(span.spanContext.parentSpanID == "editor-span")
        #expect(span.attributes["wopi.item_id"]?.toSpanAttribute() == .string(file.id.rawValue))
        #expect(span.attributes["wopi.correlation_id"]?.toSpanAttribute() == .string("corr-7"))
        #expect(span.attributes["cool.server_id"]?.toSpanAttribute() == .string("cool-3"))
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        var attributes: [String] = []
        span.attributes.forEach { key, value in attributes.append("\(key)=\(value)") }
        #expect(!attributes.joined().contains(wopi.token(file.id)), "a span attribute holds the access token")
    }

    @Test func storageAndDatabaseWorkAreChildSpansOfTheRequest() async throws {
        let wopi = TestHost()
        let file = try await wopi.seedFile("a.docx", "x")
        let tracer = InMemoryTracer()

        let lock = await withTracer(tracer) {
            await wopi.send(.post, file.id, "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L1"])
        }
        let save = await withTracer(tracer) {
            await wopi.send(.post, file.id, "/contents", ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L1"], body: "y")
        }
        let read = await withTracer(tracer) { await wopi.send(.get, file.id, "/contents") }
        #expect([lock.status, save.status, read.status] == [.ok, .ok, .ok])

        let spans = tracer.finishedSpans
        func children(of name: String) throws -> [String: FinishedInMemorySpan] {
            let parent = try #require(spans.first { $0.operationName == name && $0.kind == .server }, "\(name)")
            let children = spans.filter { $0.spanContext.parentSpanID == parent.spanID }
            #expect(children.allSatisfy { $0.traceID == parent.traceID && $0.kind == .internal })
            return Dictionary(children.map { ($0.operationName, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let locked = try children(of: "Lock")
        #expect(Set(locked.keys) == ["database.user", "storage.item", "database.lock", "database.compareAndSwap"])
        let saved = try children(of: "PutFile")
        #expect(
            Set(saved.keys).isSuperset(of: ["database.user", "storage.item", "database.lock", "storage.writeFile"]))
        let fetched = try children(of: "GetFile")
        #expect(Set(fetched.keys).isSuperset(of: ["database.user", "storage.item", "storage.readFile"]))

        let write = try #require(saved["storage.writeFile"])
        #expect(write.attributes["wopikit.work"]?.toSpanAttribute() == .string("storage"))
        #expect(write.attributes["wopi.item_id"]?.toSpanAttribute() == .string(file.id.rawValue))
        #expect(locked["database.compareAndSwap"]?.attributes["wopikit.work"]?.toSpanAttribute() == .string("database"))
    }

    @Test func aFailingStorageCallIsRecordedOnItsSpan() async throws {
        let wopi = TestHost()
        let file = try await wopi.seedFile("a.docx", "x")
        try await wopi.storage.delete(file.id)
        let tracer = InMemoryTracer()

        let response = await withTracer(tracer) { await wopi.send(.get, file.id) }
        #expect(response.status == .notFound)
        let item = try #require(tracer.finishedSpans.first { $0.operationName == "storage.item" })
        #expect(item.errors.count == 1, "the storage's error is on the storage span")
    }

    @Test func theProofKeyCheckIsAChildSpan() async throws {
        let document = ChangingDiscovery(try TestDiscoveryXML.make(clientURL: "https://c", current: nil))
        var configuration = WOPIHostConfiguration()
        configuration.proofKeySource = DiscoveryClient(source: document.source)
        let wopi = TestHost(configuration: configuration)
        let file = try await wopi.seedFile("a.docx", "x")
        let tracer = InMemoryTracer()

        let response = await withTracer(tracer) { await wopi.send(.get, file.id) }
        #expect(response.status == .internalServerError)
        let request = try #require(tracer.finishedSpans.first { $0.operationName == "CheckFileInfo" })
        let proof = try #require(tracer.finishedSpans.first { $0.operationName == "proof_key.verify" })
        #expect(proof.spanContext.parentSpanID == request.spanID)
        #expect(proof.attributes["wopikit.work"]?.toSpanAttribute() == .string("proof_key"))
        #expect(proof.errors.count == 1)
        #expect(request.status?.code == .error, "a 5xx marks the request's span failed")
    }
}
