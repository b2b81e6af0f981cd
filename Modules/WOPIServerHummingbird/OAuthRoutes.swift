import HTTPTypes
import Hummingbird
import WOPIServer

/// Mounts an ``OAuthAuthorizationServer`` on a Hummingbird router.
///
/// Adds the authorization endpoint (`GET` shows the sign-in page, `POST` handles its form), the token and
/// revocation endpoints (`POST`) and the server metadata (`GET`), at the paths of the server's configuration
/// (``OAuthAuthorizationServer/paths``).
///
/// ```swift
/// let router = Router()
/// WOPIRoutes.add(to: router, host: host)
/// OAuthRoutes.add(to: router, server: oauth)
/// ```
public enum OAuthRoutes {
    /// Adds the OAuth endpoints of `server` to `router`.
    public static func add<Context: RequestContext>(to router: Router<Context>, server: OAuthAuthorizationServer) {
        // GET and POST on every path: the server itself answers 405 to the method an endpoint does not take.
        for path in server.paths {
            let routerPath = RouterPath(String(path.drop(while: { $0 == "/" })))
            for method in [HTTPRequest.Method.get, .post] {
                router.on(routerPath, method: method) { request, _ in
                    await server.handle(WOPIRequest(request)).hummingbirdResponse
                }
            }
        }
    }
}
