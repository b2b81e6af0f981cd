public import Foundation
public import WOPIAuthorizationServer
public import WOPIModels
public import WOPIServer

#if TLS
    public import HummingbirdTLS
#endif

extension WOPIDeployment {
    /// What a deployment serves and how; every setting has a default that is safe to run.
    public struct Configuration: Sendable {
        /// The address to listen on.
        public var bindHost = "127.0.0.1"
        /// The port; `0` picks a free one.
        public var port = 8080
        /// The external base URL clients use (`https://wopi.example.com`); `nil` uses each request's `Host` (and a
        /// proxy's `X-Forwarded-Proto`).
        public var publicURL: String?
        #if TLS
            /// Serve HTTPS with this configuration; `nil` serves plain HTTP (behind a TLS proxy, say). With the `TLS`
            /// trait only (a default).
            public var tls: TLSConfiguration?
        #endif
        /// The WOPI host's settings (`publicURL`, `scheme`, `shareLinks` and the proof-key source are set by the
        /// deployment).
        public var host = WOPIHostConfiguration()
        /// The OAuth authorization server's settings (`formKey`, `scheme` and, unless set, `issuer` are set by the
        /// deployment).
        public var oauth = OAuthAuthorizationServer.Configuration()
        /// The provider ID Microsoft assigned at onboarding, in the bootstrapper's challenge.
        public var providerID: String?
        /// The app-to-app sign-in schemes of the bootstrapper's challenge.
        public var urlSchemes: URLSchemes?
        /// The authorization endpoint the bootstrapper's challenge names, when an identity provider of yours signs
        /// users in (`nil`: the built-in one).
        public var authorizationEndpoint: String?
        /// The token endpoint the bootstrapper's challenge names (`nil`: the built-in one).
        public var tokenEndpoint: String?
        /// The WOPI client's discovery (Office for the web, Collabora Online, ONLYOFFICE): turns on proof-key checks
        /// and the pages that open files in the client; `nil` for Office for iOS and Android only.
        public var discovery: DiscoverySource?
        /// How the host pages look; `nil` serves no pages (and no sign-in other than OAuth's).
        public var pages: (any HostPageRenderer)?
        /// The UI language and other placeholders of the WOPI client's action URLs.
        public var actionURLOptions = ActionURLOptions()
        /// How long the `FileUrl` in CheckFileInfo stays valid (``WOPIServer/FileURLs``; 5 minutes by default);
        /// `nil` hands out no `FileUrl`, and WOPI clients download with GetFile. Ignored when ``host`` has its own
        /// `fileURLs`.
        public var fileURLLifetime: TimeInterval? = 5 * 60
        /// How long a page session lasts.
        public var sessionLifetime: TimeInterval = 2 * 60 * 60
        /// How long a connection may stay idle (no byte read or written) before it is closed.
        public var idleTimeout: Duration = .seconds(30)
        /// How long a client may take to send a request's head, and how slowly its body (``RequestTimeouts``): a
        /// byte every few seconds keeps the idle timeout from firing, not these.
        public var requestTimeouts = RequestTimeouts()
        /// The most bytes a connection reads from its socket at once: while a body streams in, the read buffer grows
        /// from 2 KiB up to this, rounded up to a power of two (NIO's `AdaptiveRecvByteBufferAllocator`). NIO's
        /// default is 64 KiB; with 1 MiB, a 1 GiB PutFile cost the host a fifth to a third less CPU on SQLite and a
        /// third or more less on the file system, for up to 20 MiB more memory per upload in flight: the connection's
        /// stream holds up to 10 reads, and the request body's up to 4 (Docs/benchmarks.md, "A body read 1 MiB at a
        /// time").
        public var maximumReadSize = 1 << 20
        /// The `Server` header.
        public var serverName = "wopikit"
        /// Where the metrics are served in Prometheus's format; `nil` (the default) serves none, and the deployment
        /// records its metrics through the process's `MetricsSystem` (any backend you bootstrapped). See
        /// Docs/operations.md.
        public var metrics: MetricsEndpoint?
        /// How long `GET /readyz` waits for each ``ReadinessCheck`` before it answers `503`.
        public var readinessTimeout: Duration = .seconds(1)
        /// Co-authoring (CSPP Plus); `nil`, the default, answers as a CSPP host. `Docs/cspp-plus.md`.
        public var coauthoring: Coauthoring?
        /// The bytes each user's files may take, every kept version included (``StorageQuota``, registered before
        /// the other change guards); `nil`, the default, sets no quota. The storage must be a `StorageUsage`.
        public var storageQuota: Int64?

        /// How a deployment co-authors (CSPP Plus).
        public struct Coauthoring: Sendable, Hashable {
            /// The endpoints, or `nil` for those of ``Configuration/discovery``'s `rtc` and `collab` actions.
            public var endpoints: CoauthoringEndpoints?
            /// `FileGeoLocationCode`, as agreed with Microsoft at onboarding.
            public var fileGeoLocationCode: String

            /// Co-authoring with explicit `endpoints`, or discovery's when `nil`.
            public init(endpoints: CoauthoringEndpoints?, fileGeoLocationCode: String) {
                self.endpoints = endpoints
                self.fileGeoLocationCode = fileGeoLocationCode
            }
        }

        /// The defaults: plain HTTP on 127.0.0.1:8080, no pages, no discovery.
        public init() {}
    }
}

extension WOPIDeployment.Configuration {
    /// Whether the deployment serves HTTPS itself (``tls`` is set; never without the `TLS` trait).
    var servesHTTPS: Bool {
        #if TLS
            tls != nil
        #else
            false
        #endif
    }
}
