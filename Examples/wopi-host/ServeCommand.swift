import ArgumentParser
import Foundation
import Hummingbird
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals
import WOPIServer
import WOPIServerHummingbird

/// `wopi-host serve`: runs the host until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve WOPI (and, on an empty data directory, seed a demo user and files).")

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The address to listen on.") var host = "127.0.0.1"
    @Option(name: .long, help: "The port; 0 picks a free one.") var port = 8080
    @Option(name: .long, help: "The external base URL clients use, e.g. https://wopi.example.com.") var publicURL:
        String?
    @Option(name: .long, help: "Serve HTTPS with this PEM certificate chain (needs --tls-key).") var tlsCert: String?
    @Option(name: .long, help: "The PEM private key of --tls-cert.") var tlsKey: String?
    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error.") var logLevel: String = "info"

    func run() async throws {
        var logger = Logger(label: "wopi-host")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let directory = try data.open()
        let stores = try directory.stores()
        let users = stores.users
        let storage = stores.storage
        if try await users.allUsers().isEmpty {
            try await DemoSeed.seed(users: users, storage: storage)
            Console.line(DemoSeed.banner)
        }

        let tls = try tlsConfiguration()
        let scheme = tls == nil ? "http" : "https"
        var configuration = WOPIHostConfiguration()
        configuration.publicURL = publicURL
        configuration.scheme = scheme
        let wopi = WOPIHost(
            storage: storage, locks: stores.locks, users: users, tokens: try directory.tokenSigner(),
            configuration: configuration, logger: logger)

        let router = Router()
        WOPIRoutes.add(to: router, host: wopi)
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

        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        defer { directory.clearServerURL() }
        try await group.run()
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
