import Crypto
import Foundation
import HTTPTypes
import InMemoryTracing
import NIOCore
import Synchronization
import Testing
import Tracing
import WOPIClient
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage

/// A client call is a client span, and its request carries the span's trace context, so the host's span of that
/// request is the call's child: one trace from the client through the host.
@Suite struct ClientTracingTests {
    /// Sends the client's requests to a host's `handle(_:)`, in-process.
    struct HostTransport: WOPITransport {
        let host: WOPIHost
        let sent = SentHeaders()

        func send(_ request: WOPITransportRequest) async throws -> WOPITransportResponse {
            sent.append(request.headers)
            let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            let path = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            var head = HTTPRequest(method: request.method, scheme: "http", authority: "wopi.test", path: path)
            head.headerFields = request.headers
            let response = await host.handle(WOPIRequest(head: head, body: request.body ?? .empty))
            let body: ByteStream =
                switch response.body {
                case .empty: .empty
                case .buffer(let buffer): ByteStream(chunks: [buffer])
                case .stream(let stream): stream
                }
            return WOPITransportResponse(status: response.status, headers: response.headers, body: body)
        }
    }

    final class SentHeaders: Sendable {
        private let fields = Mutex<[HTTPFields]>([])
        func append(_ headers: HTTPFields) { fields.withLock { $0.append(headers) } }
        var all: [HTTPFields] { fields.withLock { $0 } }
    }

    @Test func aCallIsAClientSpanAndTheHostsSpanIsItsChild() async throws {
        let storage = InMemoryStorage()
        let root = await storage.rootContainer(forUser: "ana")
        let file = try await storage.createFile(
            named: "a.docx", in: root.id, content: ByteStream(chunks: [ByteBuffer(string: "x")]), overwrite: false)
        let signer = AccessTokenSigner(key: SymmetricKey(size: .bits256))
        let host = WOPIHost(
            storage: storage, locks: InMemoryLockStore(),
            users: InMemoryUserDirectory([
                WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil)
            ]), tokens: signer, policy: OwnerAccessPolicy())
        let token = signer.mint(
            AccessToken(userID: "ana", resource: .file(file.id), expiresAt: Date().addingTimeInterval(3600)))
        let transport = HostTransport(host: host)
        let client = WOPIClient(transport: transport)
        let resource = try WOPIResource(
            endpoint: URL(string: "http://wopi.test/wopi/files/\(file.id)")!, accessToken: token)
        let tracer = InMemoryTracer()

        let info = try await withTracer(tracer) { try await client.checkFileInfo(resource) }
        #expect(info.baseFileName == "a.docx")

        let call = try #require(tracer.finishedSpans.first { $0.kind == .client })
        #expect(call.operationName == "CheckFileInfo")
        #expect(call.attributes["wopi.item_id"]?.toSpanAttribute() == .string(file.id.rawValue))
        #expect(call.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        let sent = try #require(transport.sent.all.first)
        #expect(sent[HTTPField.Name(InMemoryTracer.spanIDKey)!] == call.spanID, "the request carries the call's span")
        let served = try #require(tracer.finishedSpans.first { $0.kind == .server })
        #expect(served.traceID == call.traceID)
        #expect(served.spanContext.parentSpanID == call.spanID)
        var attributes: [String] = []
        call.attributes.forEach { key, value in attributes.append("\(key)=\(value)") }
        #expect(!attributes.joined().contains(token), "a span attribute holds the access token")
    }

    @Test func aRefusedCallIsAFailedSpanWithTheStatus() async throws {
        let host = WOPIHost(
            storage: InMemoryStorage(), locks: InMemoryLockStore(), users: InMemoryUserDirectory([]),
            tokens: AccessTokenSigner(key: SymmetricKey(size: .bits256)))
        let client = WOPIClient(transport: HostTransport(host: host))
        let resource = try WOPIResource(
            endpoint: URL(string: "http://wopi.test/wopi/files/\(ItemID.random())")!, accessToken: "forged")
        let tracer = InMemoryTracer()

        await #expect(throws: WOPIClientError.self) {
            try await withTracer(tracer) { try await client.checkFileInfo(resource) }
        }
        let call = try #require(tracer.finishedSpans.first { $0.kind == .client })
        #expect(call.status?.code == .error)
        #expect(call.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(401))
    }
}
