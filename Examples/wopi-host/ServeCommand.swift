import ArgumentParser
import Foundation
import Hummingbird
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
    @Option(name: .long, help: "The external base URL clients use, e.g. https://wopi.example.com.") var publicURL: String?
    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error.") var logLevel: String = "info"

    func run() async throws {
        var logger = Logger(label: "wopi-host")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let directory = try data.open()
        let users = try directory.users()
        let storage = try directory.storage()
        if try await users.allUsers().isEmpty {
            try await DemoSeed.seed(users: users, storage: storage)
            Console.line(DemoSeed.banner)
        }

        var configuration = WOPIHostConfiguration()
        configuration.publicURL = publicURL
        let wopi = WOPIHost(
            storage: storage, locks: try directory.lockStore(), users: users, tokens: try directory.tokenSigner(),
            configuration: configuration, logger: logger)

        let router = Router()
        WOPIRoutes.add(to: router, host: wopi)
        router.get("health") { _, _ in "ok" }

        let bindHost = host
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(bindHost, port: port), serverName: "wopi-host"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let url = "http://\(bindHost.contains(":") ? "[\(bindHost)]" : bindHost):\(port)"
                try? directory.recordServerURL(publicURL ?? url)
                Console.line("listening on \(url)")
            },
            logger: logger)

        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        defer { directory.clearServerURL() }
        try await group.run()
    }
}
