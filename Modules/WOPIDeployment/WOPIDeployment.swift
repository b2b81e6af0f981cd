import Foundation
public import Hummingbird
public import HummingbirdCore
public import Logging
import Metrics
import NIOCore
import ServiceLifecycle
import UnixSignals
public import WOPIAuthorizationServer
import WOPIHTTPEdge
public import WOPIModels
public import WOPIServer
public import WOPIServerHummingbird
import WOPIStorage

#if TLS
    import HummingbirdTLS
#endif

/// A complete WOPI host, assembled from its stores and a configuration: the WOPI host and bootstrapper, the OAuth
/// authorization server, share-link redemption, the host pages with their sign-in, the background services, the
/// routes on a Hummingbird router, and an ordered shutdown.
///
/// What a provider writes is their storage, users and policy; the rules that keep a deployment correct are kept
/// here:
/// - every process of a deployment signs with the same keys (``DeploymentStores/keys``): WOPI tokens, share links,
///   OAuth sign-in forms and page sessions made by one host are accepted by the others;
/// - every request carries its peer address (`WOPIRequestContext`), so the per-address sign-in throttle holds on
///   `/oauth2/authorize`, `/signin` and anything mounted with ``addRoutes(to:)``;
/// - the stores' services (a garbage collector, a database pool) start before the HTTP server and stop after it;
/// - idle and half-open connections are closed after ``Configuration/idleTimeout``, and a client that sends its
///   request a byte every few seconds after ``Configuration/requestTimeouts``.
///
/// ```swift
/// let stores = try DeploymentStores.sqlite(directory: URL(fileURLWithPath: "/var/lib/wopi"))
/// var configuration = WOPIDeployment.Configuration()
/// configuration.publicURL = "https://wopi.example.com"
/// let deployment = try await WOPIDeployment(stores: stores, configuration: configuration)
/// try await deployment.run()
/// ```
public final class WOPIDeployment: Sendable {
    /// The WOPI host.
    public let host: WOPIHost
    /// The OAuth authorization server (Office's sign-in, and the password check of the host pages).
    public let authorizationServer: OAuthAuthorizationServer
    /// The host pages, when ``Configuration/pages`` draws them.
    public let pages: HostPages?
    /// The WOPI client's discovery, when ``Configuration/discovery`` names one.
    public let discovery: DiscoveryClient?
    /// The stores.
    public let stores: DeploymentStores
    /// The configuration it was built with.
    public let configuration: Configuration
    /// The base URL clients reach the host at: the configured public URL, or the address it listens on.
    public let baseURL: PublicBaseURL
    let logger: Logger
    let readiness: ReadinessProbe
    /// Where the deployment's own metrics go: the Prometheus registry of ``Configuration/metrics``, else the
    /// process's `MetricsSystem`.
    let metricsFactory: any MetricsFactory

    /// Assembles a deployment.
    ///
    /// - Parameters:
    ///   - stores: where everything lives; replace any part with your own.
    ///   - configuration: what to serve and how.
    ///   - policy: who may do what (default: the owner, plus the shares of ``DeploymentStores/shares``).
    ///   - decorators: what adds to CheckFileInfo, CheckContainerInfo and CheckEcosystem (an editor's properties,
    ///     branding), after the host pages' own URLs when the deployment serves pages.
    ///   - changeGuards: what sees, and may veto, every change (a quota, a file-type rule), in order.
    ///   - tokenVerifier: your identity provider's check of OAuth access tokens for the bootstrapper, with
    ///     ``Configuration/authorizationEndpoint`` and ``Configuration/tokenEndpoint`` pointing Office at it;
    ///     `nil` uses the built-in ``authorizationServer``.
    ///   - logger: where the host, the authorization server and the pages log.
    public init(
        stores: DeploymentStores, configuration: Configuration, policy: (any AccessPolicy)? = nil,
        decorators: [any InfoDecorator] = [], changeGuards: [any ChangeGuard] = [],
        tokenVerifier: (any OAuthAccessTokenVerifier)? = nil, logger: Logger = Logger(label: "wopikit")
    ) async throws {
        self.stores = stores
        self.configuration = configuration
        self.logger = logger
        baseURL = PublicBaseURL(configuration.publicURL)
        let metricsFactory = configuration.metrics?.factory ?? MetricsSystem.factory
        self.metricsFactory = metricsFactory
        // What the deployment fills in only where the provider left it unset: the public URL, the metrics, the
        // share links, the templates, the FileUrls, the reader; TLS makes both schemes `https`.
        var oauthConfiguration = configuration.oauth
        oauthConfiguration.issuer = oauthConfiguration.issuer ?? configuration.publicURL
        if configuration.servesHTTPS { oauthConfiguration.scheme = "https" }
        oauthConfiguration.metricsFactory = oauthConfiguration.metricsFactory ?? metricsFactory
        // Every process of the deployment accepts the sign-in forms the others showed.
        oauthConfiguration.formKey = try await stores.keys.key(named: "oauth-form")
        authorizationServer = OAuthAuthorizationServer(
            store: stores.oauth, users: stores.users, throttle: stores.throttle, configuration: oauthConfiguration,
            audit: stores.audit, logger: logger)

        let discovery = configuration.discovery.map { DiscoveryClient(source: $0, logger: logger) }
        self.discovery = discovery
        readiness = ReadinessProbe(
            checks: stores.readiness
                + (discovery.map { discovery in [ReadinessCheck("discovery") { _ = try await discovery.discovery() }] }
                    ?? []),
            timeout: configuration.readinessTimeout, clock: ContinuousClock(), logger: logger)
        var hostConfiguration = configuration.host
        hostConfiguration.publicURL = hostConfiguration.publicURL ?? configuration.publicURL
        if configuration.servesHTTPS { hostConfiguration.scheme = "https" }
        hostConfiguration.metricsFactory = hostConfiguration.metricsFactory ?? metricsFactory
        let tokenKey = try await stores.keys.key(named: "token")
        if hostConfiguration.shareLinks == nil { hostConfiguration.shareLinks = try await stores.shareLinks() }
        hostConfiguration.templates = hostConfiguration.templates ?? stores.templates
        if hostConfiguration.fileURLs == nil, let lifetime = configuration.fileURLLifetime {
            hostConfiguration.fileURLs = FileURLs(tokenKey: tokenKey, lifetime: lifetime)
        }
        if let discovery { hostConfiguration.proofKeySource = hostConfiguration.proofKeySource ?? discovery }
        // Incremental transfer for WOPIKit's client keeps its state where co-authoring would: in the stores.
        hostConfiguration.incrementalTransfer.contentStreams = stores.contentStreams
        hostConfiguration.incrementalTransfer.uploadSessions = stores.uploadSessions
        if let coauthoring = try Self.coauthoring(configuration.coauthoring, discovery: discovery) {
            guard hostConfiguration.coauthoring == nil else {
                throw WOPIDeploymentError(
                    "Co-authoring is set twice: set Configuration.coauthoring (the deployment's stores keep its state) "
                        + "or host.coauthoring, not both.")
            }
            hostConfiguration.coauthoring = coauthoring
            hostConfiguration.coauthoring?.contentStreams = stores.contentStreams
            hostConfiguration.coauthoring?.uploadSessions = stores.uploadSessions
        }
        // The reader reads the stores' own users, items and shares: a policy that decides from shares decides from
        // those (AccessPolicy.access(of:to:sharesOnPath:)); any other still saves the reads of the user and item.
        hostConfiguration.authorizationReader = hostConfiguration.authorizationReader ?? stores.authorizationReader
        var guards = changeGuards
        if let quota = configuration.storageQuota {
            guard let usage = stores.storage as? any StorageUsage else {
                throw WOPIDeploymentError(
                    "Configuration.storageQuota is set, but the storage cannot count a user's bytes: make it a "
                        + "StorageUsage, or register a StorageQuota of your own in changeGuards.")
            }
            guards.insert(StorageQuota(storage: usage, bytesPerUser: quota), at: 0)
        }
        var pageDecorator = HostPageDecorator(base: baseURL)
        pageDecorator.keepsVersions = stores.storage is any VersionedStorage
        let pageDecorators: [any InfoDecorator] = discovery == nil || configuration.pages == nil ? [] : [pageDecorator]
        host = WOPIHost(
            storage: stores.storage, locks: stores.locks, users: stores.users, tokens: AccessTokenSigner(key: tokenKey),
            configuration: hostConfiguration,
            bootstrapper: BootstrapperConfiguration(
                verifier: tokenVerifier ?? authorizationServer,
                authorizationEndpoint: configuration.authorizationEndpoint ?? oauthConfiguration.authorizationPath,
                tokenEndpoint: configuration.tokenEndpoint ?? oauthConfiguration.tokenPath,
                providerID: configuration.providerID, urlSchemes: configuration.urlSchemes),
            policy: policy ?? stores.sharingPolicy, decorators: pageDecorators + decorators, changeGuards: guards,
            activities: stores.activities, audit: stores.audit, logger: logger)

        if let renderer = configuration.pages {
            pages = HostPages(
                host: host, discovery: discovery, accounts: authorizationServer,
                sessions: HostSessions(
                    key: try await stores.keys.key(named: "session"), store: stores.oauth,
                    lifetime: configuration.sessionLifetime),
                base: baseURL, urlOptions: configuration.actionURLOptions, renderer: renderer, logger: logger)
        } else {
            pages = nil
        }
    }

    /// What the WOPI client of ``Configuration/discovery`` says it can do (`/hosting/capabilities`: Collabora Online
    /// and ONLYOFFICE; whether it makes documents from templates, converts, …), read with discovery; `nil` without
    /// discovery, or when the client publishes no capabilities or they could not be read.
    public func clientCapabilities() async -> WOPIClientCapabilities? {
        guard let discovery else { return nil }
        return try? await discovery.capabilities()
    }

    /// The host's co-authoring setting for a deployment's.
    private static func coauthoring(_ setting: Configuration.Coauthoring?, discovery: DiscoveryClient?) throws
        -> CoauthoringConfiguration?
    {
        guard let setting else { return nil }
        if let endpoints = setting.endpoints {
            return CoauthoringConfiguration(
                endpoints: .fixed(endpoints), fileGeoLocationCode: setting.fileGeoLocationCode)
        }
        guard let discovery else {
            throw WOPIDeploymentError(
                "Co-authoring without explicit endpoints takes them from discovery: set the discovery, or the endpoints."
            )
        }
        return CoauthoringConfiguration(
            endpoints: .discovery(discovery), fileGeoLocationCode: setting.fileGeoLocationCode)
    }

    /// Adds every route of the deployment to `router`: WOPI and the bootstrapper, OAuth, the host pages, the
    /// probes `GET /healthz` (and its older name `/health`) and `GET /readyz`, and the metrics when
    /// ``Configuration/metrics`` puts them on a path. Mount your own routes on the same router; their requests
    /// carry the peer address too.
    public func addRoutes(to router: Router<WOPIRequestContext>) {
        WOPIRoutes.add(to: router, host: host)
        WOPIRoutes.add(to: router, endpoints: authorizationServer)
        if let pages { WOPIRoutes.add(to: router, endpoints: pages) }
        addProbes(to: router)
        if let metrics = configuration.metrics, case .path(let path) = metrics.place {
            addMetrics(metrics, at: path, to: router)
        }
    }

    /// A router with every route of the deployment (``addRoutes(to:)``), for an `Application` of your own or for
    /// `WOPITestClient.run(router:_:)` of `WOPITesting`, which sends requests through it in-process. The stores are
    /// not started as services: give it stores that need none (SQLite, file system, in-memory), or run them yourself.
    public func router() -> Router<WOPIRequestContext> {
        let router = Router(context: WOPIRequestContext.self)
        addRoutes(to: router)
        return router
    }

    /// The HTTP/1.1 server of the configuration, for an `Application` of your own (``application(onServerRunning:)``
    /// uses it): TLS when ``Configuration/tls`` is set, the idle timeout and ``Configuration/requestTimeouts``, a
    /// 400 that closes the connection for a request whose body cannot be framed, reads of up to
    /// ``Configuration/maximumReadSize``, and each connection's requests handled on
    /// the event loop that reads the connection, not on Swift's cooperative pool, which saves every request two
    /// thread switches (`Docs/architecture.md`, "Requests run on their connection's event loop"). A handler of your
    /// own on this server must not block: send blocking work to a thread pool, as the stores do.
    public func server() -> HTTPServerBuilder {
        let timeouts = configuration.requestTimeouts
        let logger = logger
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestReadGuard(timeouts: timeouts, logger: logger)],
            idleTimeout: TimeAmount(configuration.idleTimeout))
        let maximumReadSize = configuration.maximumReadSize
        #if TLS
            let tls = configuration.tls
        #endif
        return HTTPServerBuilder { responder in
            let http1 = EventLoopChannel(
                base: HTTP1Channel(responder: responder, configuration: http), maximumReadSize: maximumReadSize)
            #if TLS
                return try tls.map { try TLSChannel(http1, tlsConfiguration: $0) } ?? http1
            #else
                return http1
            #endif
        }
    }

    /// The Hummingbird application of ``addRoutes(to:)`` on the configured address, with TLS and the idle timeout;
    /// `onServerRunning` gets the URL it listens on once it does.
    public func application(
        onServerRunning: @escaping @Sendable (String) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let router = Router(context: WOPIRequestContext.self)
        addRoutes(to: router)
        let server = server()
        let bindHost = configuration.bindHost
        let scheme = configuration.servesHTTPS ? "https" : "http"
        let base = baseURL
        let discovery = discovery
        let logger = logger
        return Application(
            router: router, server: server,
            configuration: .init(
                address: .hostname(bindHost, port: configuration.port), serverName: configuration.serverName),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let url = "\(scheme)://\(bindHost.contains(":") ? "[\(bindHost)]" : bindHost):\(port)"
                base.setIfUnset(url)
                if let discovery, (try? await discovery.discovery()) == nil {
                    logger.warning(
                        "Discovery could not be loaded yet; retrying on use",
                        metadata: ["source": "\(discovery.source)"])
                }
                await onServerRunning(url)
            },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then shuts down in order: the HTTP server first (requests in flight
    /// finish), then the audit log writes what it still holds (`AuditLog.flush()`), then the stores' services in
    /// reverse order.
    public func run(onServerRunning: @escaping @Sendable (String) async -> Void = { _ in }) async throws {
        let storeServices = withMetricsFactory(metricsFactory) { stores.services(logger) }
        let services =
            storeServices + auditFlush() + metricsListener() + [try application(onServerRunning: onServerRunning)]
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
