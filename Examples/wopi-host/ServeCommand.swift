import ArgumentParser
import Foundation
import Hummingbird
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals
import WOPIAuthorizationServer
import WOPIModels
import WOPIServer
import WOPIServerHummingbird

/// `wopi-host serve`: runs the host until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve WOPI, the bootstrapper and OAuth (--demo seeds a demo user and files).")

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The address to listen on.") var host = "127.0.0.1"
    @Option(name: .long, help: "The port; 0 picks a free one.") var port = 8080
    @Option(name: .long, help: "The external base URL clients use, e.g. https://wopi.example.com.") var publicURL:
        String?
    @Option(name: .long, help: "Serve HTTPS with this PEM certificate chain (needs --tls-key).") var tlsCert: String?
    @Option(name: .long, help: "The PEM private key of --tls-cert.") var tlsKey: String?
    @Option(name: .long, help: "The privacy statement linked from the sign-in page (a CSPP onboarding field).")
    var privacyURL: String?
    @Option(name: .long, help: "The provider ID Microsoft assigned at onboarding, sent in the bootstrapper challenge.")
    var providerID: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "App-to-app sign-in schemes for the bootstrapper challenge, as JSON.",
            discussion: #"For example {"iOS":["contoso"],"Android":["5","com.contoso.app","com.contoso.Auth"]}."#))
    var urlSchemes: String?
    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error.") var logLevel: String = "info"
    @Flag(
        name: .long,
        help: "Answer Lock, RefreshLock and Unlock from view-only users with 200 and no lock (for ONLYOFFICE).")
    var acknowledgeViewOnlyLocks = false
    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Behind a reverse proxy: throttle sign-ins by the last X-Forwarded-For address, not the connection's.",
            discussion: "Only when the proxy appends that header and clients cannot reach the host around it."))
    var trustForwardedFor = false
    @Flag(
        name: .long,
        help: ArgumentHelp(
            "On a data directory with no users, add the user demo (password demo) and a few documents.",
            discussion: "For trying the host only: a deployment never starts with a known account."))
    var demo = false
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The WOPI client's discovery URL (Office for the web, Collabora Online, ONLYOFFICE).",
            discussion: "Turns on the host pages (/files, /open/ID) and proof-key checks on every WOPI request."))
    var discoveryURL: String?
    @Option(name: .long, help: "Like --discovery-url, from a discovery XML file.") var discoveryFile: String?
    @Flag(
        name: .long,
        help: "Development only: accept WOPI requests without valid proof keys although discovery is set.")
    var noProofCheck = false
    @Option(name: .long, help: "The WOPI client's interface language (UI_LLCC), e.g. en-US.") var uiLanguage = "en-US"

    func run() async throws {
        var logger = Logger(label: "wopi-host")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let directory = try await data.open()
        let stores = try await directory.stores()
        let users = stores.users
        let storage = stores.storage
        if try await users.allUsers().isEmpty {
            if demo {
                try await DemoSeed.seed(users: users, storage: storage)
                Console.line(DemoSeed.banner)
            } else {
                Console.line(
                    "No users yet: add one with `wopi-host user add NAME --password-stdin --data \(data.data)`, "
                        + "or start with --demo to try the host with a demo user.")
            }
        }
        if try await stores.oauth.allClients().isEmpty {
            Console.line(try await DemoSeed.registerClients(in: stores.oauth, directory: directory))
        }

        let tls = try tlsConfiguration()
        let scheme = tls == nil ? "http" : "https"
        var oauthConfiguration = OAuthAuthorizationServer.Configuration()
        oauthConfiguration.issuer = publicURL
        oauthConfiguration.scheme = scheme
        oauthConfiguration.privacyStatementURL = privacyURL
        oauthConfiguration.signInThrottle.trustsForwardedFor = trustForwardedFor
        let oauth = try await directory.oauthServer(stores: stores, configuration: oauthConfiguration, logger: logger)

        var configuration = WOPIHostConfiguration()
        configuration.publicURL = publicURL
        configuration.scheme = scheme
        configuration.shareLinks = ShareLinks(tokenKey: try await directory.tokenKey())
        configuration.viewOnlyLocks = acknowledgeViewOnlyLocks ? .acknowledge : .refuse
        let base = PublicBaseURL(publicURL)
        let discovery = try discoveryClient(logger: logger)
        if let discovery {
            configuration.proofKeySource = discovery
            configuration.proofKeyCheckDisabled = noProofCheck
            if noProofCheck { Console.line("warning: proof-key checking is off (--no-proof-check); development only") }
        }
        let wopi = WOPIHost(
            storage: storage, locks: stores.locks, users: users, tokens: try await directory.tokenSigner(),
            configuration: configuration,
            bootstrapper: BootstrapperConfiguration(
                verifier: oauth, providerID: providerID, urlSchemes: try parsedURLSchemes()),
            policy: discovery == nil ? stores.policy : HostPagePolicy(base: base, inner: stores.policy),
            activities: stores.activities, logger: logger)

        let router = Router(context: WOPIRequestContext.self)
        WOPIRoutes.add(to: router, host: wopi)
        WOPIRoutes.add(to: router, endpoints: oauth)
        router.get("health") { _, _ in "ok" }
        if let discovery, (try? await discovery.discovery()) == nil {
            Console.line("warning: discovery could not be loaded yet from \(discovery.source); retrying on use")
        }
        let sessionKey = try await SecretKeyFile.loadOrCreate(
            at: directory.url.appendingPathComponent("secrets/session.key"))
        HostPages(
            host: wopi, discovery: discovery, accounts: oauth, shares: stores.shares,
            sessions: HostSessions(
                signer: AccessTokenSigner(key: sessionKey),
                secure: scheme == "https" || publicURL?.hasPrefix("https") == true),
            base: base, urlOptions: ActionURLOptions(uiLanguage: uiLanguage), logger: logger
        ).add(to: router)

        let bindHost = host
        let app = Application(
            router: router,
            server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
            configuration: .init(address: .hostname(bindHost, port: port), serverName: "wopi-host"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let url = "\(scheme)://\(bindHost.contains(":") ? "[\(bindHost)]" : bindHost):\(port)"
                base.setIfUnset(url)
                try? directory.recordServerURL(publicURL ?? url)
                Console.line("listening on \(url)")
            },
            logger: logger)

        // Shut down in reverse order: the HTTP server first, the database pool (in maintenance) last.
        let services: [any Service] = stores.maintenance(logger) + [app]
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        defer { directory.clearServerURL() }
        try await group.run()
    }

    /// The discovery client of `--discovery-url` or `--discovery-file`, or `nil`.
    private func discoveryClient(logger: Logger) throws -> DiscoveryClient? {
        switch (discoveryURL, discoveryFile) {
        case (nil, nil):
            if noProofCheck { throw ValidationError("--no-proof-check needs --discovery-url or --discovery-file.") }
            return nil
        case (let url?, nil):
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
                throw ValidationError("--discovery-url must be an http(s) URL.")
            }
            return DiscoveryClient(source: .http(url), logger: logger)
        case (nil, let path?):
            return DiscoveryClient(source: .file(path), logger: logger)
        default:
            throw ValidationError("Give --discovery-url or --discovery-file, not both.")
        }
    }

    /// `--url-schemes` as the bootstrapper's `UrlSchemes`, or `nil`.
    private func parsedURLSchemes() throws -> URLSchemes? {
        guard let urlSchemes else { return nil }
        do {
            return try URLSchemes(encodedValue: urlSchemes)
        } catch {
            throw ValidationError("--url-schemes: \(error)")
        }
    }

    /// The TLS settings from `--tls-cert` and `--tls-key`, or `nil` for plain HTTP.
    private func tlsConfiguration() throws -> TLSConfiguration? {
        switch (tlsCert, tlsKey) {
        case (nil, nil):
            return nil
        case (let cert?, let key?):
            return TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(cert).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        default:
            throw ValidationError("--tls-cert and --tls-key go together.")
        }
    }
}
