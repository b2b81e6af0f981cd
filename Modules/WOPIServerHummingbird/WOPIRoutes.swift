import HTTPTypes
public import Hummingbird
import NIOCore
public import WOPIHTTPEdge
public import WOPIServer
import WOPIStorage

/// Mounts a ``WOPIHost``, and any ``HTTPEndpoints`` such as the OAuth authorization server, on a Hummingbird router.
///
/// The core knows nothing of Hummingbird; these routes translate requests and responses and stream bodies in both
/// directions (`request.body` is never collected).
///
/// ```swift
/// let router = Router()
/// WOPIRoutes.add(to: router, host: host)
/// WOPIRoutes.add(to: router, endpoints: oauth)   // an OAuthAuthorizationServer, if you run one
/// let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// try await app.runService()
/// ```
public enum WOPIRoutes {
    /// Adds the WOPI endpoints (everything under the host's WOPI path) and the bootstrapper (`/wopibootstrapper`).
    public static func add<Context: RequestContext>(to router: Router<Context>, host: WOPIHost) {
        let wopiPath = RouterPath(String(host.configuration.wopiPath.drop(while: { $0 == "/" })) + "/**")
        for path in [wopiPath, RouterPath("wopibootstrapper")] {
            for method in [HTTPRequest.Method.get, .post] {
                router.on(path, method: method) { request, context in
                    await respond(to: request, context: context) { await host.handle($0) }
                }
            }
        }
    }

    /// Adds every route of `endpoints`, each for its own method, so the router chooses the route once; a method
    /// that no route of a path takes answers 405 with `Allow`.
    public static func add<Context: RequestContext>(to router: Router<Context>, endpoints: some HTTPEndpoints) {
        var methodsOfPath: [String: [HTTPRequest.Method]] = [:]
        var paths: [String] = []
        for route in endpoints.routes {
            if methodsOfPath[route.path] == nil { paths.append(route.path) }
            methodsOfPath[route.path, default: []].append(route.method)
            router.on(routerPath(route.path), method: route.method) { request, context in
                await respond(to: request, context: context) { request in
                    var request = request
                    request.parameters = route.parameters(matching: request.path) ?? [:]
                    return await route.answer(request)
                }
            }
        }
        for path in paths {
            let allowed = methodsOfPath[path] ?? []
            for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch] where !allowed.contains(method) {
                router.on(routerPath(path), method: method) { _, _ in
                    HTTPRoute.methodNotAllowed(allowing: allowed).hummingbirdResponse
                }
            }
        }
    }

    /// A route's path as the router takes it (no leading `/`).
    private static func routerPath(_ path: String) -> RouterPath {
        RouterPath(String(path.drop(while: { $0 == "/" })))
    }

    /// Hands `request` to `handler`, unless its framing is unsafe to read
    /// (``WOPIHTTPEdge/HTTPFields/hasAcceptableTransferEncoding``): then it answers 400.
    ///
    /// A route cannot close its connection, and the bytes after such a head are read as the next request; the
    /// server of `WOPIDeployment` refuses the head before any route sees it and closes the connection. On a server
    /// of your own, do the same in a channel handler, or put a proxy in front that refuses such requests.
    static func respond(
        to request: Request, context: some RequestContext,
        handler: (WOPIRequest) async -> WOPIResponse
    ) async -> Response {
        guard request.headers.hasAcceptableTransferEncoding else {
            var response = WOPIResponse(
                status: .badRequest,
                body: .buffer(ByteBuffer(string: "Transfer-Encoding must be chunked or absent.")))
            response.headers[.contentType] = "text/plain; charset=utf-8"
            response.headers[.connection] = "close"
            return response.hummingbirdResponse
        }
        return await handler(WOPIRequest(request, context: context)).hummingbirdResponse
    }
}

extension WOPIRequest {
    /// Wraps a Hummingbird request with the peer address of `context`, when it keeps one
    /// (`RemoteAddressRequestContext`, such as ``WOPIRequestContext``); the body stays a stream.
    ///
    /// The one way a Hummingbird request becomes a ``WOPIHTTPEdge/WOPIRequest``: the peer address is what the sign-in
    /// throttle counts failures by, so no route may drop it.
    public init(_ request: Request, context: some RequestContext) {
        // HTTP/1.1 framing holds a body to its Content-Length, so the length is known before the body is read: a
        // PutFile over the host's size limit is refused without reading it.
        let length = request.headers[.contentLength].flatMap { Int64($0) }
        self.init(head: request.head, body: ByteStream(request.body, knownLength: length))
        remoteAddress = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress
    }
}

extension WOPIResponse {
    /// The Hummingbird response for this WOPI response; streamed bodies are written chunk by chunk.
    public var hummingbirdResponse: Response {
        switch body {
        case .empty:
            var headers = headers
            headers[.contentLength] = "0"
            return Response(status: status, headers: headers, body: ResponseBody())
        case .buffer(let buffer):
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: buffer))
        case .stream(let stream):
            let length = stream.knownLength.map { Int($0) }
            return Response(
                status: status, headers: headers,
                body: ResponseBody(contentLength: length) { writer in
                    for try await chunk in stream {
                        try await writer.write(chunk)
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
