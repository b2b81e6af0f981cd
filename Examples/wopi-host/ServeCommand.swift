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
        help: ArgumentHelp(
            "On a data directory with no users, add the user demo (password demo) and a few documents.",
            discussion: "For trying the host only: a deployment never starts with a known account."))
    var demo = false

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
        let oauth = try await directory.oauthServer(stores: stores, configuration: oauthConfiguration, logger: logger)

        var configuration = WOPIHostConfiguration()
        configuration.publicURL = publicURL
        configuration.scheme = scheme
        configuration.shareLinks = ShareLinks(tokenKey: try await directory.tokenKey())
        let wopi = WOPIHost(
            storage: storage, locks: stores.locks, users: users, tokens: try await directory.tokenSigner(),
            configuration: configuration,
            bootstrapper: BootstrapperConfiguration(
                verifier: oauth, providerID: providerID, urlSchemes: try parsedURLSchemes()),
            policy: stores.policy, activities: stores.activities, logger: logger)

        let router = Router()
        WOPIRoutes.add(to: router, host: wopi)
        WOPIRoutes.add(to: router, endpoints: oauth)
        router.get("health") { _, _ in "ok" }

        let bindHost = host
        let app = Application(
            router: router,
            server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
            configuration: .init(address: .hostname(bindHost, port: port), serverName: "wopi-host"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let url = "\(scheme)://\(bindHost.contains(":") ? "[\(bindHost)]" : bindHost):\(port)"
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
