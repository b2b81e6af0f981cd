public import Foundation
import HTTPTypes
public import Logging
import NIOCore
import Tracing
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

/// A WOPI client: the bootstrapper, ecosystem, container and file operations of the protocol, and the flows
/// Office for iOS and Android walk through them (add a place, browse, open, save and close).
///
/// Every call takes a ``WOPIResource`` (an endpoint with its access token, as the host returned it). When a WOPI
/// call answers `401` (token expired or invalid) and the client has a bootstrapper and a
/// ``BootstrapTokenProvider``, it fetches a new token with GetNewAccessToken and retries once, transparently;
/// a token whose `access_token_ttl` has passed is renewed before the call. Calls that stream a body up (PutFile,
/// PutRelativeFile) are renewed up front but not retried, since their body cannot be sent twice.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()
/// let client = WOPIClient(transport: transport, bootstrapper: url, tokenProvider: myOAuthAdapter)
/// let place = try await client.addPlace()
/// let children = try await client.enumerateChildren(of: place.root.resource)
/// ```
///
/// Errors are ``WOPIClientError``s. Tokens are never logged.
public final class WOPIClient: Sendable {
    /// Settings of a client.
    public struct Configuration: Sendable {
        /// How long the host has to answer a JSON call.
        public var requestTimeout: Duration = .seconds(60)
        /// How long the host has to start answering a content transfer (an upload is sent within it).
        public var transferTimeout: Duration = .seconds(6 * 3600)
        /// A token this close to its `access_token_ttl` is renewed before use.
        public var tokenRenewalLeeway: TimeInterval = 30
        /// The largest JSON body accepted.
        public var maximumJSONSize = 16 * 1024 * 1024
        /// Sent as `X-WOPI-RequestingApplication` and `User-Agent`.
        public var applicationName = "WOPIKit-WOPIClient"

        /// Creates the default settings.
        public init() {}
    }

    /// The HTTP transport.
    public let transport: any WOPITransport
    /// The bootstrapper URL (`…/wopibootstrapper`), when known.
    public let bootstrapperURL: URL?
    /// Where OAuth access tokens for the bootstrapper come from, when signed in.
    public let tokenProvider: (any BootstrapTokenProvider)?
    /// The settings.
    public let configuration: Configuration
    let logger: Logger
    let tokens = TokenCache()

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: how requests are sent, e.g. ``AsyncHTTPClientTransport``.
    ///   - bootstrapper: the host's bootstrapper URL; needed for the bootstrapper calls and token renewal.
    ///   - tokenProvider: OAuth access tokens for the bootstrapper; `nil` when not signed in.
    public init(
        transport: any WOPITransport, bootstrapper: URL? = nil, tokenProvider: (any BootstrapTokenProvider)? = nil,
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "wopikit.client")
    ) {
        self.transport = transport
        self.bootstrapperURL = bootstrapper
        self.tokenProvider = tokenProvider
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: - Calls

    /// One WOPI call on a resource.
    struct Call: Sendable {
        var name: String
        var method: HTTPRequest.Method
        var resource: WOPIResource
        var suffix: String?
        var headers = HTTPFields()
        var body: ByteStream?
        var isTransfer = false

        init(_ name: String, _ method: HTTPRequest.Method, _ resource: WOPIResource, suffix: String? = nil) {
            self.name = name
            self.method = method
            self.resource = resource
            self.suffix = suffix
        }

        /// Sets a header by its WOPI name.
        mutating func set(_ name: String, _ value: String) {
            headers[HTTPField.Name(name)!] = value
        }
    }

    /// Sends a call in a client span of the process's tracer named by the call (`CheckFileInfo`, `PutFile`, ...);
    /// its requests carry the span's trace context (W3C `traceparent` with swift-otel's propagator).
    func send(_ call: Call) async throws -> WOPITransportResponse {
        try await withSpan(call.name, ofKind: .client) { span in
            do {
                let response = try await exchange(call)
                Self.describe(span, call, status: response.status.code)
                return response
            } catch {
                Self.describe(span, call, status: (error as? WOPIClientError)?.status)
                span.setStatus(SpanStatus(code: .error))
                throw error
            }
        }
    }

    /// Sends a call, renewing the token before (when expired) and after a `401` (retrying once if the call has no
    /// body), and turns a non-2xx answer into a ``WOPIClientError``.
    private func exchange(_ call: Call) async throws -> WOPITransportResponse {
        var entry = await tokens.token(for: call.resource)
        if canRenew(call.resource), let expiry = entry?.expiry,
            expiry.timeIntervalSinceNow < configuration.tokenRenewalLeeway
        {
            logger.debug("Renewing an expiring WOPI token", metadata: ["call": "\(call.name)"])
            entry = try await renewToken(for: call.resource, rejected: entry?.token)
        }
        var response = try await transmit(call, token: entry?.token)
        if response.status.code == 401, canRenew(call.resource) {
            await Self.discard(response.body)
            logger.debug("WOPI token rejected; getting a new one", metadata: ["call": "\(call.name)"])
            entry = try await renewToken(for: call.resource, rejected: entry?.token)
            guard call.body == nil else {
                throw WOPIClientError(
                    .unauthorized,
                    "\(call.name): the access token had expired; a new one was fetched, but the upload cannot be "
                        + "replayed. Send it again.", status: 401)
            }
            response = try await transmit(call, token: entry?.token)
        }
        guard (200..<300).contains(response.status.code) else {
            throw await error(for: response, call: call)
        }
        return response
    }

    /// Sends a call and decodes its JSON answer.
    func json<T: Decodable>(_ type: T.Type, _ call: Call) async throws -> T {
        let response = try await send(call)
        return try await decode(type, from: response, call: call.name)
    }

    /// Decodes a JSON body; optional members that cannot be read are left out with a warning (``TolerantJSON``).
    func decode<T: Decodable>(_ type: T.Type, from response: WOPITransportResponse, call: String) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await response.body.collect(upTo: configuration.maximumJSONSize)
        } catch let error as StorageError where error.code == .tooLarge {
            throw WOPIClientError(
                .protocolViolation,
                "\(call): the host's JSON answer is larger than \(configuration.maximumJSONSize) "
                    + "bytes.", status: response.status.code)
        } catch {
            throw WOPIClientError(
                .transport, "\(call): the connection failed while reading the answer; check the network and retry.",
                underlying: error)
        }
        do {
            let (value, ignored) = try TolerantJSON.decode(type, from: Data(buffer.readableBytesView))
            for member in ignored {
                logger.warning("\(call): the host's answer has an unreadable member, ignored: \(member)")
            }
            return value
        } catch {
            throw WOPIClientError(
                .protocolViolation, "\(call): the host's answer is not the JSON the protocol describes.",
                status: response.status.code, underlying: error)
        }
    }

    /// Sends one request through the transport.
    private func transmit(_ call: Call, token: String?) async throws -> WOPITransportResponse {
        var headers = call.headers
        headers[.userAgent] = configuration.applicationName
        headers[.wopiRequestingApplication] = configuration.applicationName
        headers[.wopiCorrelationID] = UUID().uuidString
        if let token { headers[.authorization] = "Bearer \(token)" }
        let request = WOPITransportRequest(
            method: call.method, url: call.resource.url(call.suffix, token: token), headers: headers, body: call.body,
            timeout: call.isTransfer ? configuration.transferTimeout : configuration.requestTimeout)
        return try await transmit(request, call: call.name)
    }

    /// Sends a request with the current trace context in its headers, wrapping transport failures.
    func transmit(_ request: WOPITransportRequest, call: String) async throws -> WOPITransportResponse {
        var request = request
        InstrumentationSystem.instrument.inject(
            InstrumentationContext.current ?? .topLevel, into: &request.headers, using: HTTPFieldsInjector())
        do {
            return try await transport.send(request)
        } catch let error as WOPIClientError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw WOPIClientError(
                .transport,
                "\(call): could not reach \(request.url.host ?? "the host") or the connection failed; check the "
                    + "address and the network, then retry.", underlying: error)
        }
    }

    /// Whether a new token can be had for `resource`.
    func canRenew(_ resource: WOPIResource) -> Bool {
        guard bootstrapperURL != nil, tokenProvider != nil else { return false }
        return true
    }

    /// A new token for `resource`: GetNewAccessToken for files and containers, a new Bootstrap for the ecosystem.
    func renewToken(for resource: WOPIResource, rejected: String?) async throws -> TokenCache.Entry {
        try await tokens.refresh(resource.endpoint, rejected: rejected) { [self] in
            switch resource.kind {
            case .file, .container:
                let info = try await newAccessToken(for: resource.wopiSrc)
                return TokenCache.Entry(
                    token: info.accessToken,
                    expiry: info.accessTokenExpiry > 0 ? EpochMilliseconds.date(info.accessTokenExpiry) : nil)
            case .ecosystem:
                let ecosystem = try WOPIResource(string: try await bootstrap().ecosystemURL)
                return TokenCache.Entry(token: ecosystem.accessToken ?? "", expiry: ecosystem.accessTokenExpiry)
            }
        }
    }

    /// Reads and drops a body, so its connection can be reused.
    static func discard(_ body: ByteStream) async {
        _ = try? await body.collect(upTo: 64 * 1024)
    }
}
