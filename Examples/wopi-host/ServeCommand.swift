import ArgumentParser
import Foundation
import HummingbirdTLS
import Logging
import Metrics
import WOPIAuthorizationServer
import WOPIDeployment
import WOPIModels
import WOPIServer
import WOPITelemetry

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
    @Option(
        name: .long,
        help: "A user who administers the host (IsAdminUser for Collabora Online); repeat for several.")
    var admin: [String] = []
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a lock lasts once the last editing session of the host pages was closed without an Unlock.",
            discussion: "Without it, such a lock lapses after the protocol's 30 minutes."))
    var lockGraceAfterClose: Int?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A folder of templates (.dotx, .ott, ...) new documents can be made from.",
            discussion:
                "Without it, the data directory's templates/ folder. Which document was made from which is kept in the data directory's template-references.json."
        ))
    var templates: String?
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
    @Option(name: .long, help: "Seconds a connection may idle (no byte read or written).")
    var idleTimeout = 30
    @Option(name: .long, help: "Seconds a client may take to send a request's head.")
    var headerTimeout = 30
    @Option(
        name: .long,
        help: "Seconds a request body may keep the host waiting before it must bring 1 KiB for each second more.")
    var bodyTimeout = 30
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve the metrics in Prometheus's format on a listener of their own, HOST:PORT (port 0 picks one).",
            discussion: "Off by default. No token is asked: listen on loopback or an interface only Prometheus reaches."
        ))
    var metricsListen: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve the metrics at this path of the main listener, e.g. /metrics.",
            discussion: "Off by default. Anyone who reaches the host reads them: keep the path private at your proxy."))
    var metricsPath: String?
    @OptionGroup var coauthoring: CoauthoringOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, not \(port).") }
        if let publicURL, !(publicURL.hasPrefix("https://") || publicURL.hasPrefix("http://")) {
            throw ValidationError("--public-url must be an http(s) URL, such as https://wopi.example.com.")
        }
        _ = try metricsEndpoint()
        if let lockGraceAfterClose, lockGraceAfterClose < 0 {
            throw ValidationError("--lock-grace-after-close must be 0 seconds or more.")
        }
        for (name, seconds) in [("idle", idleTimeout), ("header", headerTimeout), ("body", bodyTimeout)]
        where seconds < 1 {
            throw ValidationError("--\(name)-timeout must be at least 1 second.")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical.")
        }
    }

    func run() async throws {
        var logger = Logger(label: "wopi-host")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let metrics = try metricsEndpoint()
        if let metrics {
            // The libraries underneath (Hummingbird, the database pool, the garbage collector) record into the same
            // registry; bootstrapped before the stores open, so that their metrics are made with it.
            MetricsSystem.bootstrap(metrics.factory)
        }
        let directory = try await data.open(serving: true)
        var stores = try await directory.stores()
        if let templates {
            stores.templates = DeploymentStores.templates(
                in: directory.url, templateDirectory: URL(fileURLWithPath: templates, isDirectory: true))
        }
        try await DemoSeed.prepare(stores, directory: directory, demo: demo, dataPath: data.data)

        var configuration = WOPIDeployment.Configuration()
        configuration.bindHost = host
        configuration.port = port
        configuration.publicURL = publicURL
        configuration.tls = try tlsConfiguration()
        configuration.oauth.privacyStatementURL = privacyURL
        configuration.oauth.signInThrottle.trustsForwardedFor = trustForwardedFor
        configuration.host.viewOnlyLocks = acknowledgeViewOnlyLocks ? .acknowledge : .refuse
        if let lockGraceAfterClose {
            configuration.host.endedSessionLocks = .releaseAfterClose(grace: TimeInterval(lockGraceAfterClose))
        }
        configuration.providerID = providerID
        configuration.urlSchemes = try parsedURLSchemes()
        configuration.discovery = try discoverySource()
        configuration.proofKeyCheckDisabled = noProofCheck
        configuration.actionURLOptions = ActionURLOptions(uiLanguage: uiLanguage)
        configuration.pages = HostPageHTML()
        configuration.idleTimeout = .seconds(idleTimeout)
        configuration.requestTimeouts = RequestTimeouts(header: .seconds(headerTimeout), body: .seconds(bodyTimeout))
        configuration.metrics = metrics
        configuration.coauthoring = try coauthoring.setting(hasDiscovery: configuration.discovery != nil)
        if noProofCheck { Console.line("warning: proof-key checking is off (--no-proof-check); development only") }

        let deployment = try await WOPIDeployment(
            stores: stores, configuration: configuration, decorators: [EditorDecorator(admins: Set(admin))],
            logger: logger)
        defer { directory.clearServerURL() }
        // Spans go out over OTLP when OTEL_* asks for it, and the last ones are sent after the server stopped.
        try await OTLPTracing.withExport(serviceName: "wopi-host", logger: logger) {
            try await deployment.run { url in
                try? directory.recordServerURL(publicURL ?? url)
                Console.line("listening on \(url)")
            }
        }
    }

    /// The discovery of `--discovery-url` or `--discovery-file`, or `nil`.
    private func discoverySource() throws -> DiscoverySource? {
        switch (discoveryURL, discoveryFile) {
        case (nil, nil):
            if noProofCheck { throw ValidationError("--no-proof-check needs --discovery-url or --discovery-file.") }
            return nil
        case (let url?, nil):
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
                throw ValidationError("--discovery-url must be an http(s) URL.")
            }
            return .http(url)
        case (nil, let path?):
            return .file(path)
        default:
            throw ValidationError("Give --discovery-url or --discovery-file, not both.")
        }
    }

    /// The metrics endpoint of `--metrics-listen` or `--metrics-path`, or `nil`.
    private func metricsEndpoint() throws -> MetricsEndpoint? {
        switch (metricsListen, metricsPath) {
        case (nil, nil):
            return nil
        case (let address?, nil):
            guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
                (0...65535).contains(port)
            else { throw ValidationError("--metrics-listen takes HOST:PORT, such as 127.0.0.1:9464.") }
            let host = address[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return .listener(host: host, port: port)
        case (nil, let path?):
            guard path.hasPrefix("/"), path.count > 1 else {
                throw ValidationError("--metrics-path must start with /, such as /metrics.")
            }
            return .path(path)
        default:
            throw ValidationError("Give --metrics-listen or --metrics-path, not both.")
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
