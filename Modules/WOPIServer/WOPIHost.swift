import Foundation
import HTTPTypes
import Logging
import WOPIModels
import WOPIStorage

/// The WOPI host core: answers WOPI requests for the files and containers in a ``StorageBackend``.
///
/// It is framework-neutral: an adapter turns its web framework's requests into ``WOPIRequest``s, calls
/// ``handle(_:)`` and writes the ``WOPIResponse`` back (see `WOPIServerHummingbird`). Bodies stream in both
/// directions. Lock state lives in a ``LockStore`` and users in a ``UserDirectory``, so several host processes
/// can share them.
///
/// ```swift
/// let host = WOPIHost(storage: backend, locks: InMemoryLockStore(), users: directory,
///                     tokens: AccessTokenSigner(key: key))
/// let response = await host.handle(request)
/// ```
public final class WOPIHost: Sendable {
    /// Where files and containers live.
    public let storage: any StorageBackend
    /// Where WOPI locks live.
    public let locks: any LockStore
    /// Where users live.
    public let users: any UserDirectory
    /// Mints and verifies WOPI access tokens.
    public let tokens: AccessTokenSigner
    /// Behaviour settings.
    public let configuration: WOPIHostConfiguration
    /// The bootstrapper's OAuth verification and challenge; `nil` answers `/wopibootstrapper` with 404.
    public let bootstrapper: BootstrapperConfiguration?
    /// Who may do what with which item.
    public let policy: any AccessPolicy
    /// Where AddActivities' comments and mentions are kept.
    public let activities: any ActivityLog
    let logger: Logger
    let now: @Sendable () -> Date

    /// Creates a host.
    ///
    /// - Parameters:
    ///   - policy: who may do what; the default is a ``SharingAccessPolicy`` over an in-memory ``ShareStore``
    ///     (each user sees their own items, and what is shared with them while this process runs).
    ///   - activities: where AddActivities' comments and mentions are kept (default: in memory).
    ///   - now: the clock, for tests.
    public init(
        storage: any StorageBackend, locks: any LockStore, users: any UserDirectory, tokens: AccessTokenSigner,
        configuration: WOPIHostConfiguration = WOPIHostConfiguration(),
        bootstrapper: BootstrapperConfiguration? = nil, policy: (any AccessPolicy)? = nil,
        activities: any ActivityLog = InMemoryActivityLog(),
        logger: Logger = Logger(label: "wopikit.host"), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.locks = locks
        self.users = users
        self.tokens = tokens
        self.configuration = configuration
        self.bootstrapper = bootstrapper
        self.policy = policy ?? SharingAccessPolicy(storage: storage, shares: InMemoryShareStore())
        self.activities = activities
        self.logger = logger
        self.now = now
        if configuration.proofKeySource != nil, configuration.proofKeyCheckDisabled {
            logger.warning("Proof-key checking is OFF: any caller with a token is trusted. For development only.")
        }
    }

    /// Answers one request. Never throws: every failure becomes the status the protocol asks for.
    public func handle(_ request: WOPIRequest) async -> WOPIResponse {
        var logger = logger
        if let id = request.headers[HeaderName.correlationID] ?? request.headers[HeaderName.requestID] {
            logger[metadataKey: "correlation"] = "\(id)"
        }
        var response: WOPIResponse
        do {
            response = try await dispatch(request, logger: logger)
        } catch let error as WOPIHTTPError {
            response = error.response
        } catch let error as StorageError {
            response = Self.httpError(for: error).response
        } catch let veto as ContentVeto {
            logger.info("The policy refused a change", metadata: ["path": "\(request.path)", "veto": "\(veto)"])
            response = WOPIHTTPError(veto.status, veto.message).response
        } catch {
            logger.error("WOPI request failed", metadata: ["path": "\(request.path)", "error": "\(error)"])
            response = WOPIHTTPError(.internalServerError, "The host failed: \(type(of: error)).").response
        }
        response.headers[HeaderName.serverVersion] = configuration.serverVersion
        logger.debug(
            "WOPI request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.path)",
                "override": "\(request.headers[HeaderName.override] ?? "-")", "status": "\(response.status.code)",
            ])
        return response
    }

    private func dispatch(_ request: WOPIRequest, logger: Logger) async throws -> WOPIResponse {
        guard let route = WOPIRoute(path: request.path) else {
            throw WOPIHTTPError.notFound("No WOPI endpoint at this path.")
        }
        if case .bootstrapper = route {} else { try await verifyProof(request, logger: logger) }
        let override = request.headers[HeaderName.override]?.uppercased()
        switch (route, request.method) {
        case (.unknownItem, _):
            _ = try await authorizedToken(request)
            throw WOPIHTTPError.notFound("No item has this ID.")
        case (.file(let id, let endpoint), _):
            let context = try await authorize(request, for: .file(id))
            return try await handleFile(id, endpoint: endpoint, override: override, request: request, context: context)
        case (.container(SharedWithMe.id, let endpoint), _):
            let context = try await authorize(request, for: .container(SharedWithMe.id))
            return try await handleSharedWithMe(endpoint, override: override, request: request, context: context)
        case (.container(let id, let endpoint), _):
            let context = try await authorize(request, for: .container(id))
            return try await handleContainer(
                id, endpoint: endpoint, override: override, request: request, context: context)
        case (.ecosystem(let endpoint), _):
            let context = try await authorize(request, for: .ecosystem)
            return try await handleEcosystem(endpoint, override: override, request: request, context: context)
        case (.bootstrapper, _):
            return try await handleBootstrapper(request)
        }
    }

    // MARK: - Errors

    static func httpError(for error: StorageError) -> WOPIHTTPError {
        switch error.code {
        case .notFound, .notAFile, .notAContainer: .notFound(error.message)
        case .nameConflict, .notEmpty, .versionMismatch: WOPIHTTPError(.conflict, error.message)
        case .invalidName: .badRequest(error.message)
        case .unsupported, .crossContainerMove: .notImplemented(error.message)
        case .tooLarge: WOPIHTTPError(.contentTooLarge, error.message)
        case .busy: WOPIHTTPError(.serviceUnavailable, error.message, headers: [.retryAfter: "1"])
        case .unavailable: WOPIHTTPError(.serviceUnavailable, error.message, headers: [.retryAfter: "2"])
        default: WOPIHTTPError(.internalServerError, error.message)
        }
    }

    func unsupported(_ override: String?, on endpoint: String) -> WOPIHTTPError {
        .notImplemented("The operation \(override ?? "(none)") is not implemented on \(endpoint).")
    }
}

/// The header names every request reads or writes, parsed once rather than per request.
private enum HeaderName {
    static let correlationID = HTTPField.Name(WOPIHeader.correlationID)!
    static let requestID = HTTPField.Name(WOPIHeader.requestID)!
    static let override = HTTPField.Name(WOPIHeader.override)!
    static let serverVersion = HTTPField.Name(WOPIHeader.serverVersion)!
}
