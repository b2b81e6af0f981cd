import ArgumentParser
import Foundation
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
    @OptionGroup var listen: ListenOptions
    @OptionGroup var editor: EditorOptions
    @OptionGroup var coauthoring: CoauthoringOptions
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
        help: ArgumentHelp(
            "A folder of templates (.dotx, .ott, ...) new documents can be made from.",
            discussion:
                "Without it, the data directory's templates/ folder. Which document was made from which is kept in the data directory's template-references.json."
        ))
    var templates: String?
    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error.") var logLevel: String = "info"
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

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical.")
        }
    }

    func run() async throws {
        var logger = Logger(label: "wopi-host")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var configuration = WOPIDeployment.Configuration()
        try listen.apply(to: &configuration)
        if let metrics = configuration.metrics {
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

        try editor.apply(to: &configuration)
        configuration.oauth.privacyStatementURL = privacyURL
        configuration.oauth.signInThrottle.trustsForwardedFor = trustForwardedFor
        configuration.providerID = providerID
        configuration.urlSchemes = try parsedURLSchemes()
        configuration.pages = HostPageHTML()
        configuration.coauthoring = try coauthoring.setting(hasDiscovery: configuration.discovery != nil)
        configuration.host.incrementalTransfer.offer = coauthoring.incrementalTransfer
        configuration.storageQuota = directory.storageQuota

        let deployment = try await WOPIDeployment(
            stores: stores, configuration: configuration, decorators: editor.decorators,
            changeGuards: ExampleDecisions.changeGuards, logger: logger)
        defer { directory.clearServerURL() }
        // Spans go out over OTLP when OTEL_* asks for it, and the last ones are sent after the server stopped.
        try await OTLPTracing.withExport(serviceName: "wopi-host", logger: logger) {
            try await deployment.run { url in
                try? directory.recordServerURL(listen.publicURL ?? url)
                Console.line("listening on \(url)")
            }
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
}
