import AsyncHTTPClient
import Foundation
import Logging
import WOPIClient
import WOPIClientOAuth
import WOPIOAuth

/// A command's connection to its place: the WOPI client signed in through the saved OAuth tokens, and the
/// place's root. Close it when done.
struct Connection: Sendable {
    let place: PlaceRecord
    let client: WOPIClient
    let root: WOPIContainerPointer
    let config: ConfigDirectory
    private let transport: AsyncHTTPClientTransport

    /// The HTTP transport of a command. A command that cannot connect fails at once, as curl does: AsyncHTTPClient
    /// would otherwise retry a refused connection until its 10 s connect timeout. The mount, which runs for hours,
    /// passes `retryingConnections: true` and rides out a host that is briefly unreachable.
    static func transport(retryingConnections: Bool = false) -> AsyncHTTPClientTransport {
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.connectionPool.retryConnectionEstablishment = retryingConnections
        return AsyncHTTPClientTransport(configuration: configuration)
    }

    /// Opens the place named by `options` and runs `body` with it (see ``transport(retryingConnections:)``).
    static func with<T: Sendable>(
        _ options: GlobalOptions, retryingConnections: Bool = false, _ body: (Connection) async throws -> T
    ) async throws -> T {
        let config = ConfigDirectory()
        let place = try config.place(named: options.place)
        let oauth = OAuthClientConfiguration(
            clientID: place.clientID, authorizationEndpoint: place.authorizationEndpoint,
            tokenEndpoint: place.tokenEndpoint, scopes: place.scopes)
        // One HTTP client for the token endpoint and WOPI.
        let transport = Self.transport(retryingConnections: retryingConnections)
        let session = try await OAuthSession.restore(
            client: TokenEndpointClient(
                configuration: oauth, transport: AsyncHTTPClientOAuthTransport(client: transport.client),
                logger: Logger.cli),
            store: config.tokenStore, key: place.name)
        guard await session.isSignedIn else {
            try? await transport.shutdown()
            throw CLIFailure(
                .notSignedIn,
                "Not signed in to \(place.name); run `wopi login \(place.bootstrapperURL.absoluteString)`.")
        }
        let client = WOPIClient(
            transport: transport, bootstrapper: place.bootstrapperURL,
            tokenProvider: OAuthSessionTokenProvider(session: session), logger: Logger.cli)
        do {
            let root = try await client.bootstrapRootContainer().root
            let connection = Connection(place: place, client: client, root: root, config: config, transport: transport)
            let result = try await body(connection)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// The item at `path`.
    ///
    /// - Throws: ``CLIFailure`` with ``CLIExitCode/notFound`` when a segment names nothing.
    func resolve(_ path: RemotePath) async throws -> RemoteItem {
        var current = root
        var parent: WOPIContainerPointer?
        for (index, segment) in path.segments.enumerated() {
            let children = try await client.enumerateChildren(of: current.resource)
            if let container = children.containers.first(where: { $0.name == segment }) {
                parent = current
                current = container
            } else if let file = children.files.first(where: { $0.name == segment }),
                index == path.segments.count - 1
            {
                return .file(file, parent: current)
            } else {
                throw CLIFailure(.notFound, "Nothing is at \(path) on \(place.name) (no \"\(segment)\").")
            }
        }
        return .container(current, parent: parent)
    }

    /// The item at `path`, or `nil` when its last segment names nothing (its parent must exist).
    func resolveIfPresent(_ path: RemotePath) async throws -> RemoteItem? {
        do {
            return try await resolve(path)
        } catch let failure as CLIFailure where failure.code == .notFound {
            guard case .container = try await resolve(path.parent) else {
                throw CLIFailure(.notFound, "\(path.parent) is a file, not a folder.")
            }
            return nil
        }
    }

    /// The file at `path`, or a usage failure when it is a folder.
    func file(_ path: RemotePath) async throws -> WOPIFilePointer {
        guard case .file(let file, _) = try await resolve(path) else {
            throw CLIFailure(.usage, "\(path) is a folder, not a file.")
        }
        return file
    }

    /// The container at `path`, or a usage failure when it is a file.
    func container(_ path: RemotePath) async throws -> WOPIContainerPointer {
        guard case .container(let container, _) = try await resolve(path) else {
            throw CLIFailure(.usage, "\(path) is a file, not a folder.")
        }
        return container
    }

    // MARK: Locks taken with `wopi lock`

    private func lockKey(_ file: WOPIFilePointer) -> String { place.name + " " + file.resource.wopiSrc.absoluteString }

    /// The lock ID `wopi lock` took on `file`, if any.
    func savedLock(_ file: WOPIFilePointer) throws -> String? { try config.loadLocks()[lockKey(file)] }

    /// Remembers (or forgets, with `nil`) the lock ID held on `file`.
    func saveLock(_ lockID: String?, for file: WOPIFilePointer) throws {
        var locks = try config.loadLocks()
        locks[lockKey(file)] = lockID
        try config.saveLocks(locks)
    }
}

extension Logger {
    /// The tool's logger: warnings and worse, on standard error.
    static var cli: Logger {
        var logger = Logger(label: "wopi")
        logger.logLevel = .warning
        return logger
    }
}
