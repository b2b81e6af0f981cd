import Crypto
import HTTPTypes
import NIOCore
import Testing
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage
import WOPITesting

/// Endpoints are routed once: the router picks the route by method and path and hands it the path's parameters; a
/// method no route of a path takes is 405 with `Allow`, the same through the Hummingbird adapter and in-process.
@Suite struct HTTPRouteTests {
    /// Two routes on one path with a parameter, and one fixed path: each answers what it saw.
    struct Items: HTTPEndpoints {
        var routes: [HTTPRoute] {
            [
                HTTPRoute(.get, "/items/:id") { Self.echo("get", $0) },
                HTTPRoute(.post, "/items/:id") { Self.echo("post", $0) },
                HTTPRoute(.get, "/about") { Self.echo("about", $0) },
            ]
        }

        static func echo(_ route: String, _ request: WOPIRequest) -> WOPIResponse {
            let text = "\(route) \(request.parameters["id"] ?? "-")"
            return WOPIResponse(status: .ok, body: .buffer(ByteBuffer(string: text)))
        }
    }

    func text(_ response: WOPIResponse) -> String {
        guard case .buffer(let buffer) = response.body else { return "" }
        return String(buffer: buffer)
    }

    func request(_ method: HTTPRequest.Method, _ path: String) -> WOPIRequest {
        WOPIRequest(head: HTTPRequest(method: method, scheme: "http", authority: "wopi.test", path: path))
    }

    @Test func aRouteMatchesItsSegmentsAndNamesItsParameters() {
        let route = HTTPRoute(.get, "/open/:id") { _ in WOPIResponse(status: .ok) }
        #expect(route.parameters(matching: "/open/f1") == ["id": "f1"])
        #expect(route.parameters(matching: "/open/f1/") == ["id": "f1"])
        #expect(route.parameters(matching: "/open") == nil)
        #expect(route.parameters(matching: "/open/f1/more") == nil)
        #expect(route.parameters(matching: "/close/f1") == nil)
    }

    @Test func inProcessTheRouteOfTheMethodAnswersAndOtherMethodsAre405() async {
        let items = Items()
        #expect(text(await items.handle(request(.get, "/items/a1"))) == "get a1")
        #expect(text(await items.handle(request(.post, "/items/a1"))) == "post a1")
        let wrong = await items.handle(request(.delete, "/items/a1"))
        #expect(wrong.status == .methodNotAllowed)
        #expect(wrong.headers[.allow] == "GET, POST")
        #expect(await items.handle(request(.get, "/nothing")).status == .notFound)
    }

    @Test func throughTheAdapterTheRouterChoosesOnceAndAnswers405WithAllow() async throws {
        let host = WOPIHost(
            storage: InMemoryStorage(), locks: InMemoryLockStore(), users: InMemoryUserDirectory([]),
            tokens: AccessTokenSigner(key: SymmetricKey(size: .bits256)))
        try await WOPITestClient.run(host: host, endpoints: [Items()]) { client in
            #expect(try await client.send(.get, "/items/a1").text == "get a1")
            #expect(try await client.send(.post, "/items/b2").text == "post b2")
            #expect(try await client.send(.get, "/about").text == "about -")
            let put = try await client.send(.put, "/items/a1")
            #expect(put.status == .methodNotAllowed)
            #expect(put[.allow] == "GET, POST")
            let post = try await client.send(.post, "/about")
            #expect(post.status == .methodNotAllowed)
            #expect(post[.allow] == "GET")
        }
    }
}
