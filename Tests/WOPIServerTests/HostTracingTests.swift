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
        let span = try #require(tracer.finishedSpans.first)
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
}
