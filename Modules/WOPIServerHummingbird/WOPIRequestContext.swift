public import Hummingbird
public import NIOCore
import WOPIHTTPEdge

/// A Hummingbird request context that keeps the connection's peer address, so that ``WOPIRoutes`` can pass it on
/// as ``WOPIHTTPEdge/WOPIRequest/remoteAddress`` (the sign-in throttle counts failures per client address).
///
/// Use it as the router's context; with any other context that conforms to `RemoteAddressRequestContext` the
/// routes read the address too, and with one that does not, requests carry no address (failures are then counted
/// per account only).
///
/// ```swift
/// let router = Router(context: WOPIRequestContext.self)
/// WOPIRoutes.add(to: router, host: host)
/// ```
public struct WOPIRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The address of the connection's peer.
    public let remoteAddress: SocketAddress?

    /// Creates the context of one request on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
