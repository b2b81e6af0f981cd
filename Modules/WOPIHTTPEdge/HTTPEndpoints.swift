public import HTTPTypes
import NIOCore

/// A set of framework-neutral endpoints at fixed paths, such as the OAuth authorization server or the host pages:
/// what an adapter mounts beside the `WOPIHost`.
///
/// Each ``HTTPRoute`` is one method on one path with its answer, so the adapter's router chooses the route once and
/// the endpoints never look at the path again. A method that no route of a path takes gets 405 with `Allow`.
/// Open for third-party conformances: a provider's own pages can be mounted the same way.
public protocol HTTPEndpoints: Sendable {
    /// Every route answered; paths start with `/`.
    var routes: [HTTPRoute] { get }
}

/// One endpoint: a method, a path and its answer.
///
/// A path segment `:name` matches any one segment, which the answer reads from ``WOPIRequest/parameters``
/// (`/open/:id` answers `/open/f1` with `parameters["id"] == "f1"`).
public struct HTTPRoute: Sendable {
    /// The method answered.
    public var method: HTTPRequest.Method
    /// The path answered, for example `/oauth2/token` or `/open/:id`.
    public var path: String
    /// Answers a request the route matched; failures are responses, never thrown.
    public var answer: @Sendable (WOPIRequest) async -> WOPIResponse

    /// Creates a route for `method` on `path`.
    public init(
        _ method: HTTPRequest.Method, _ path: String, answer: @escaping @Sendable (WOPIRequest) async -> WOPIResponse
    ) {
        self.method = method
        self.path = path
        self.answer = answer
    }

    /// The path parameters `requestPath` gives this route's path, or `nil` when it does not match. Empty segments
    /// are ignored, as routers ignore them (`/oauth2/token/` matches `/oauth2/token`).
    public func parameters(matching requestPath: String) -> [String: String]? {
        let pattern = path.split(separator: "/")
        let segments = requestPath.split(separator: "/")
        guard pattern.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, segment) in zip(pattern, segments) {
            if expected.first == ":" {
                parameters[String(expected.dropFirst())] = String(segment)
            } else if expected != segment {
                return nil
            }
        }
        return parameters
    }

    /// The answer to a method no route of a path takes: 405 with `Allow` naming the methods that are.
    public static func methodNotAllowed(allowing methods: [HTTPRequest.Method]) -> WOPIResponse {
        var headers = HTTPFields()
        headers[.allow] = methods.map(\.rawValue).joined(separator: ", ")
        return WOPIResponse(status: .methodNotAllowed, headers: headers)
    }
}

extension HTTPEndpoints {
    /// Answers `request` with the route its method and path match, in-process and without a router (a test, or an
    /// adapter for a framework whose router cannot take these routes): 405 when only the method is wrong, 404 when
    /// no route has the path.
    public func handle(_ request: WOPIRequest) async -> WOPIResponse {
        var allowed: [HTTPRequest.Method] = []
        for route in routes {
            guard let parameters = route.parameters(matching: request.path) else { continue }
            guard route.method == request.method else {
                allowed.append(route.method)
                continue
            }
            var request = request
            request.parameters = parameters
            return await route.answer(request)
        }
        guard allowed.isEmpty else { return HTTPRoute.methodNotAllowed(allowing: allowed) }
        return WOPIResponse(status: .notFound, body: .buffer(ByteBuffer(string: "Not found.\n")))
    }
}
