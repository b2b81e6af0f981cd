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
        let storage = InMemoryStorage()
        let users = InMemoryUserDirectory()
        await users.save(WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        let root = await storage.rootContainer(forUser: "ana")
        let file = try await storage.createFile(
            named: "a.docx", in: root.id, content: ByteStream(chunks: [ByteBuffer(string: "x")]), overwrite: false)
        let signer = AccessTokenSigner(key: SymmetricKey(size: .bits256))
        let host = WOPIHost(storage: storage, locks: InMemoryLockStore(), users: users, tokens: signer)
        let token = signer.mint(
            AccessToken(userID: "ana", resource: .file(file.id), expiresAt: Date().addingTimeInterval(3600)))
        var head = HTTPRequest(
            method: .get, scheme: "http", authority: "h", path: "/wopi/files/\(file.id)?access_token=\(token)")
        // The in-memory tracer's own propagation keys stand for `traceparent`.
        head.headerFields[HTTPField.Name(InMemoryTracer.traceIDKey)!] = "trace-1"
        head.headerFields[HTTPField.Name(InMemoryTracer.spanIDKey)!] = "editor-span"
        head.headerFields[.wopiCorrelationID] = "corr-7"
        head.headerFields[HTTPField.Name("X-COOL-WOPI-ServerId")!] = "cool-3"

        let tracer = InMemoryTracer()
        let response = await withTracer(tracer) { await host.handle(WOPIRequest(head: head)) }
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
        #expect(!attributes.joined().contains(token), "a span attribute holds the access token")
    }
}
