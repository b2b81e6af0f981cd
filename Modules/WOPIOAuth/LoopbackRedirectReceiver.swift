public import Foundation
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Receives the authorization redirect on a loopback HTTP listener (RFC 8252 §7.3).
///
/// It listens on `127.0.0.1` (or `[::1]`) on a port the OS chooses, accepts exactly one request to the callback
/// path, answers the browser with a small page ("Signed in. You can close this tab." or the error), and closes.
/// Other paths, such as `/favicon.ico`, get a 404. A timeout, a cancelled wait, or ``close()`` close it too.
///
/// ```swift
/// let receiver = try await LoopbackRedirectReceiver.start()
/// let request = AuthorizationRequest(configuration: config, redirectURI: receiver.redirectURI)
/// try await browser.open(request.url)
/// let response = try await receiver.waitForAuthorizationResponse(expecting: request.expectation)
/// ```
public final class LoopbackRedirectReceiver: Sendable {
    /// Where and how to listen.
    public struct Configuration: Sendable, Hashable {
        /// The loopback interface to bind.
        public enum Host: Sendable, Hashable {
            /// `127.0.0.1`, which RFC 8252 §8.3 recommends over `localhost`.
            case ipv4
            /// `[::1]`.
            case ipv6
        }

        /// The loopback interface.
        public var host: Host
        /// The port; `0` lets the OS choose a free one.
        public var port: Int
        /// The callback path, starting with `/`.
        public var path: String

        /// Creates a configuration.
        public init(host: Host = .ipv4, port: Int = 0, path: String = "/callback") {
            self.host = host
            self.port = port
            self.path = path
        }
    }

    /// The redirect URI to register and send, such as `http://127.0.0.1:53124/callback`.
    public let redirectURI: URL
    private let channel: any Channel
    private let state: LoopbackReceiverState
    private let logger: Logger

    private init(redirectURI: URL, channel: any Channel, state: LoopbackReceiverState, logger: Logger) {
        self.redirectURI = redirectURI
        self.channel = channel
        self.state = state
        self.logger = logger
    }

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - configuration: The interface, port and path.
    ///   - logger: The logger.
    /// - Throws: ``OAuthError/Code/invalidConfiguration`` for a bad path;
    ///   ``OAuthError/Code/transport`` when the port cannot be bound.
    public static func start(
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "WOPIOAuth.Loopback")
    ) async throws(OAuthError) -> LoopbackRedirectReceiver {
        let path = configuration.path
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#"), !path.contains(" ") else {
            throw OAuthError(
                .invalidConfiguration,
                "The loopback callback path '\(path)' must start with / and "
                    + "hold no query, fragment or space.")
        }
        let (bindHost, uriHost) = configuration.host == .ipv4 ? ("127.0.0.1", "127.0.0.1") : ("::1", "[::1]")
        let state = LoopbackReceiverState()
        let originBox = OriginBox()
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 16)
                .childChannelInitializer { child in
                    child.eventLoop.makeCompletedFuture {
                        state.track(child)
                        try child.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try child.pipeline.syncOperations.addHandler(
                            LoopbackRequestHandler(state: state, path: path, origin: originBox.origin))
                    }
                }
                .bind(host: bindHost, port: configuration.port)
                .get()
        } catch {
            throw OAuthError(
                .transport,
                "Could not listen on \(uriHost):\(configuration.port) for the sign-in redirect; "
                    + "check that the loopback interface is up and the port is free.", underlying: error)
        }
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw OAuthError(.transport, "The loopback listener has no port; try again.")
        }
        let origin = "http://\(uriHost):\(port)"
        originBox.set(origin)
        logger.debug("Loopback redirect receiver listening", metadata: ["origin": "\(origin)", "path": "\(path)"])
        return LoopbackRedirectReceiver(
            redirectURI: URL(string: origin + path)!, channel: channel, state: state, logger: logger)
    }

    /// Waits for the redirect and checks it as an authorization response.
    ///
    /// The browser gets the "Signed in" page when the response is valid, or a page with the error otherwise. The
    /// listener is closed when this returns or throws.
    ///
    /// - Parameters:
    ///   - expecting: The request's state and the expected issuer.
    ///   - timeout: How long the user has to finish signing in.
    ///   - clock: The clock that measures `timeout`; tests pass one they move forward by hand.
    /// - Throws: The check's ``OAuthError``; ``OAuthError/Code/timeout``; ``OAuthError/Code/cancelled``.
    public func waitForAuthorizationResponse(
        expecting: AuthorizationResponse.Expectation, timeout: Duration = .seconds(300),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws(OAuthError) -> AuthorizationResponse {
        try await waitForRedirect(timeout: timeout, clock: clock) { redirect throws(OAuthError) in
            try AuthorizationResponse.parse(redirect: redirect, expecting: expecting)
        }
    }

    /// Waits for the one request to the callback path and hands its URL to `handle`.
    ///
    /// The browser gets the "Signed in" page if `handle` returns, or a page with its error if it throws. The
    /// listener is closed when this returns or throws.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait.
    ///   - clock: The clock that measures `timeout`; tests pass one they move forward by hand.
    ///   - handle: Checks the redirect and extracts what the caller needs.
    public func waitForRedirect<Value: Sendable>(
        timeout: Duration, clock: any Clock<Duration> = ContinuousClock(),
        handle: (RedirectURL) throws(OAuthError) -> Value
    ) async throws(OAuthError) -> Value {
        let state = self.state
        let timer = Task {
            guard (try? await clock.sleep(for: timeout)) != nil else { return }  // cancelled: the wait ended
            state.fail(OAuthError(.timeout, "No sign-in redirect arrived within \(timeout); start the sign-in again."))
        }
        defer { timer.cancel() }
        let delivery: LoopbackReceiverState.Delivery
        do {
            delivery = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { state.wait($0) }
            } onCancel: {
                state.fail(OAuthError(.cancelled, "The sign-in was cancelled."))
            }
        } catch {
            await close()
            throw (error as? OAuthError) ?? OAuthError(.cancelled, "The sign-in was cancelled.", underlying: error)
        }
        let outcome: Result<Value, OAuthError>
        do throws(OAuthError) {
            outcome = .success(try handle(RedirectURL(delivery.url)))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success:
            delivery.respond.succeed(.signedIn)
        case .failure(let error):
            logger.info("Rejected the sign-in redirect", metadata: ["error": "\(error.code)"])
            delivery.respond.succeed(.failed(error))
        }
        state.finish()
        await close()
        return try outcome.get()
    }

    /// Whether the receiver no longer accepts a callback.
    public var isFinished: Bool { state.isFinished }

    /// Stops listening and closes idle connections; a pending wait ends with ``OAuthError/Code/cancelled``.
    /// Safe to call more than once.
    public func close() async {
        state.fail(OAuthError(.cancelled, "The loopback receiver was closed before a redirect arrived."))
        try? await channel.close()
        for connection in state.takeConnections() {
            try? await connection.close()
        }
    }
}

/// The receiver's origin, known only once the OS picked the port; read by connection handlers.
private final class OriginBox: Sendable {
    private let value = Mutex("")
    var origin: String { value.withLock { $0 } }
    func set(_ origin: String) { value.withLock { $0 = origin } }
}
