public import Foundation
import HTTPTypes
public import Logging
import Metrics
public import WOPIHTTPEdge
import WOPIModels
public import WOPIStorage

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
    /// Who may do what with which item. Every entry point asks it through the door
    /// (``authorize(_:on:by:)``, ``authorize(_:by:access:)``).
    public let policy: any AccessPolicy
    /// What is added to CheckFileInfo, CheckContainerInfo and CheckEcosystem, in order.
    public let decorators: [any InfoDecorator]
    /// What sees, and may veto, every change, in order.
    public let changeGuards: [any ChangeGuard]
    /// Where AddActivities' comments and mentions are kept.
    public let activities: any ActivityLog
    /// Where opens, saves, renames, deletes, share links, lock conflicts and proof-key failures are recorded; `nil`
    /// records nothing.
    public let audit: (any AuditLog)?
    let logger: Logger
    let now: @Sendable () -> Date
    let metrics: HostMetrics
    /// The editing sessions the host's pages opened, for ``WOPIHostConfiguration/endedSessionLocks``.
    let editingSessions = EditingSessions()
    let chunkListCache = ContentChunkListCache()

    /// Creates a host.
    ///
    /// - Parameters:
    ///   - policy: who may do what; the default is a ``SharingAccessPolicy`` over an in-memory ``ShareStore``
    ///     (each user sees their own items, and what is shared with them while this process runs).
    ///   - decorators: what adds to CheckFileInfo, CheckContainerInfo and CheckEcosystem (host pages, an editor's
    ///     properties, branding), in order.
    ///   - changeGuards: what sees, and may veto, every change (a quota, a file-type rule), in order.
    ///   - activities: where AddActivities' comments and mentions are kept (default: in memory).
    ///   - audit: where what the host does is recorded (default: nowhere); see ``AuditLog``.
    ///   - now: the clock, for tests.
    public init(
        storage: any StorageBackend, locks: any LockStore, users: any UserDirectory, tokens: AccessTokenSigner,
        configuration: WOPIHostConfiguration = WOPIHostConfiguration(),
        bootstrapper: BootstrapperConfiguration? = nil, policy: (any AccessPolicy)? = nil,
        decorators: [any InfoDecorator] = [], changeGuards: [any ChangeGuard] = [],
        activities: any ActivityLog = InMemoryActivityLog(), audit: (any AuditLog)? = nil,
        logger: Logger = Logger(label: "wopikit.host"), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.locks = locks
        self.users = users
        self.tokens = tokens
        self.configuration = configuration
        self.bootstrapper = bootstrapper
        self.policy = policy ?? SharingAccessPolicy(storage: storage, shares: InMemoryShareStore())
        self.decorators = decorators
        self.changeGuards = changeGuards
        self.activities = activities
        self.audit = audit
        self.logger = logger
        self.now = now
        metrics = HostMetrics(factory: configuration.metricsFactory ?? MetricsSystem.factory)
        if configuration.proofKeySource != nil, configuration.proofKeyCheckDisabled {
            logger.warning("Proof-key checking is OFF: any caller with a token is trusted. For development only.")
        }
    }

    /// Answers one request. Never throws: every failure becomes the status the protocol asks for.
    ///
    /// The request is a server span of the process's tracer (swift-distributed-tracing), named by its operation and
    /// a child of the trace context its headers carry (`traceparent` with a W3C propagator such as swift-otel's).
    public func handle(_ request: WOPIRequest) async -> WOPIResponse {
        let operation = WOPIOperation(request)
        let name = operation?.name ?? WOPIOperation.notWOPIName
        return await withServerSpan(name, for: request) { span in
            let response = await answer(operation, named: name, request: request)
            Self.describe(span, request: request, resource: operation?.resource)
            return response
        }
    }

    private func answer(_ operation: WOPIOperation?, named name: String, request: WOPIRequest) async -> WOPIResponse {
        let start = ContinuousClock.now
        var logger = logger
        if let id = request.headers[.wopiCorrelationID] ?? request.headers[.requestID] {
            logger[metadataKey: "correlation"] = "\(id)"
        }
        var response: WOPIResponse
        do {
            response = try await dispatch(operation, request: request, logger: logger)
        } catch {
            metrics.failed(with: error)
            if let veto = error as? ContentVeto {
                logger.info(
                    "A change guard refused a change", metadata: ["path": "\(request.path)", "veto": "\(veto)"])
            }
            response = WOPIResponse(answering: error, logger: logger, metadata: ["path": "\(request.path)"])
        }
        response.headers[.wopiServerVersion] = configuration.serverVersion
        logger.debug(
            "WOPI request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.path)",
                "override": "\(request.headers[.wopiOverride] ?? "-")", "status": "\(response.status.code)",
            ])
        metrics.answered(name, status: response.status.code, after: ContinuousClock.now - start)
        return response
    }

    private func dispatch(_ operation: WOPIOperation?, request: WOPIRequest, logger: Logger) async throws
        -> WOPIResponse
    {
        guard let operation else {
            throw WOPIHTTPError.notFound("No WOPI endpoint at this path.")
        }
        switch operation {
        case .bootstrap(let shortcut):
            return try await bootstrap(request, shortcut: shortcut)
        case .getFromFileURL(let id):
            return try await getFromFileURL(id, request: request)  // never signed (Docs/wopi-protocol.md §12)
        case .unknownItem:
            try await verifyProof(request, logger: logger)
            _ = try await authorizedToken(request)
            throw WOPIHTTPError.notFound("No item has this ID.")
        case .getTemplate(let id) where request.header(WOPIHeader.proof) == nil:
            // ONLYOFFICE downloads TemplateSource unsigned; the token is still checked (WOPIHost+Templates.swift).
            let context = try await authorize(request, for: .file(id))
            _ = try admit(operation, context: context)
            return try await perform(operation, request: request, context: context)
        default:
            try await verifyProof(request, logger: logger)
            if let view = versionView(of: operation) { return try await perform(operation, on: view, request: request) }
            guard let resource = operation.resource else { throw WOPIHTTPError.notFound("No item has this ID.") }
            let context = try await authorize(request, for: resource, signed: checksProofs)
            if let acknowledged = try admit(operation, context: context) { return acknowledged }
            do {
                let response = try await performing(operation, request: request, user: context.user) {
                    try await perform(operation, request: request, context: context)
                }
                await auditPerformed(operation, request: request, context: context, response: response)
                return response
            } catch {
                await auditLockConflict(error, operation: operation, context: context)
                throw error
            }
        }
    }

    // MARK: - Errors

    static func unsupported(_ description: String) -> WOPIHTTPError {
        .notImplemented("The operation \(description) is not implemented.")
    }
}
