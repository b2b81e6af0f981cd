import HTTPTypes
import Hummingbird
import WOPIServer

/// Mounts an ``OAuthAuthorizationServer`` on a Hummingbird router.
///
/// Adds the authorization endpoint (`GET` shows the sign-in page, `POST` handles its form), the token and
/// revocation endpoints (`POST`) and the server metadata (`GET`), at the paths of the server's configuration.
///
/// ```swift
/// let router = Router()
/// WOPIRoutes.add(to: router, host: host)
/// OAuthRoutes.add(to: router, server: oauth)
/// ```
public enum OAuthRoutes {
    /// Adds the OAuth endpoints of `server` to `router`.
    public static func add<Context: RequestContext>(to router: Router<Context>, server: OAuthAuthorizationServer) {
        let configuration = server.configuration
        let routes: [(String, [HTTPRequest.Method])] = [
            (configuration.authorizationPath, [.get, .post]),
            (configuration.tokenPath, [.post]),
            (configuration.revocationPath, [.post]),
            (configuration.metadataPath, [.get]),
        ]
        for (path, methods) in routes {
            let routerPath = RouterPath(String(path.drop(while: { $0 == "/" })))
            for method in methods {
                router.on(routerPath, method: method) { request, _ in
                    await server.handle(WOPIRequest(request)).hummingbirdResponse
                }
            }
        }
    }
}
