public import WOPIModels

/// An error from a ``WOPIClient`` call: what the host answered (or why it could not be reached) and what to do.
///
/// Match on ``code``; the codes are open for additions, so keep a `default` branch. A lock conflict carries the
/// host's current lock in ``currentLock``; an unauthenticated bootstrapper call carries its ``challenge``.
public struct WOPIClientError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unauthorized, notFound, lockConflict, conflict, invalidName, tooLarge, preconditionFailed
            case notImplemented, badRequest, server, protocolViolation, transport, signInRequired
            case sequenceConflict
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// `401`: the WOPI access token is invalid or expired (and no new one could be had), or the bootstrapper
        /// rejected the OAuth token.
        public static let unauthorized = Code(.unauthorized)
        /// The bootstrapper needs an OAuth access token and none is available: sign in first.
        public static let signInRequired = Code(.signInRequired)
        /// `404`: the item does not exist, or the user may not see it.
        public static let notFound = Code(.notFound)
        /// `409` with `X-WOPI-Lock`: the file is locked with another lock ID (``WOPIClientError/currentLock``),
        /// or unlocked where a lock was expected (`currentLock` is `""`).
        public static let lockConflict = Code(.lockConflict)
        /// `409` without a lock: a name is taken, or a container is not empty.
        public static let conflict = Code(.conflict)
        /// `400` on a name: the host refuses the name (see ``WOPIClientError/validRelativeTarget``).
        public static let invalidName = Code(.invalidName)
        /// `413`: the body is larger than the host accepts.
        public static let tooLarge = Code(.tooLarge)
        /// `412`: the file is larger than `X-WOPI-MaxExpectedSize`.
        public static let preconditionFailed = Code(.preconditionFailed)
        /// `412` with `X-WOPI-SequenceNumber` on PutChunkedFile: the file changed on the host since this client
        /// read it (another client saved). Nothing was written. Download it again, merge your change into the
        /// new content, and save with the new sequence number (``WOPIClientError/currentSequenceNumber``); never
        /// resend the same content blindly, which would undo the other save.
        public static let sequenceConflict = Code(.sequenceConflict)
        /// `501`: the host does not implement the operation.
        public static let notImplemented = Code(.notImplemented)
        /// Another `400`: the request was malformed.
        public static let badRequest = Code(.badRequest)
        /// `5xx` or another unexpected status.
        public static let server = Code(.server)
        /// The host's answer breaks the protocol (bad JSON, missing header or field, a URL without an ID).
        public static let protocolViolation = Code(.protocolViolation)
        /// The host could not be reached, or the connection failed mid-transfer.
        public static let transport = Code(.transport)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String
    /// The HTTP status, when the host answered.
    public let status: Int?
    /// For ``Code/lockConflict``: the host's current lock ID (`""` when the file is unlocked).
    public let currentLock: String?
    /// For ``Code/lockConflict``: the host's `X-WOPI-LockFailureReason`, if any.
    public let lockFailureReason: String?
    /// For ``Code/conflict`` and ``Code/invalidName``: the decoded `X-WOPI-ValidRelativeTarget`, a name the host
    /// would accept, if it sent one.
    public let validRelativeTarget: String?
    /// For a bootstrapper ``Code/unauthorized``: the parsed `WWW-Authenticate` challenge.
    public let challenge: BootstrapChallenge?
    /// The host's `X-WOPI-ServerError`, if any.
    public let serverError: String?
    /// The lower-level error, if any.
    public let underlying: (any Error)?
    /// For ``Code/sequenceConflict``: the host's current sequence number of the file.
    public internal(set) var currentSequenceNumber: Int64?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, status: Int? = nil, currentLock: String? = nil,
        lockFailureReason: String? = nil, validRelativeTarget: String? = nil, challenge: BootstrapChallenge? = nil,
        serverError: String? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.currentLock = currentLock
        self.lockFailureReason = lockFailureReason
        self.validRelativeTarget = validRelativeTarget
        self.challenge = challenge
        self.serverError = serverError
        self.underlying = underlying
    }

    /// A lock conflict: the file holds `currentLock` (`""` for unlocked).
    public static func lockConflict(currentLock: String, reason: String? = nil, status: Int = 409) -> WOPIClientError {
        let message =
            currentLock.isEmpty
            ? "The file is not locked, but the operation needs the lock; lock it first."
            : "The file is locked by another client (lock \(currentLock)); wait until it is unlocked, or unlock it "
                + "with that lock ID."
        return WOPIClientError(
            .lockConflict, message, status: status, currentLock: currentLock, lockFailureReason: reason)
    }

    public var description: String {
        var text = "WOPIClientError.\(code): \(message)"
        if let status { text += " (HTTP \(status))" }
        if let serverError, !serverError.isEmpty { text += " [host: \(serverError)]" }
        if let underlying { text += " (underlying: \(underlying))" }
        return text
    }
}
