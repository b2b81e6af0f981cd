public import Foundation
public import Logging

/// Where a host records who did what: sign-ins, token mints, opens and saves, renames and deletes, shares, lock
/// conflicts and breaks, proof-key failures (Docs/operations.md).
///
/// Open for third-party conformances (a SIEM, a message queue); `AuditLogConformance` (WOPIServerConformance) is
/// the kit. WOPIKit ships ``InMemoryAuditLog``, ``FileAuditLog`` (JSON lines), `SQLiteAuditLog` and
/// `PostgresAuditLog`. An ``AuditEvent`` never holds a secret: no token, password, proof value or file content.
///
/// ``ActivityLog`` is another thing: the comments and mentions a WOPI client reports through AddActivities, kept
/// for the client; this log is what the host did, kept for the operator.
public protocol AuditLog: Sendable {
    /// Appends `event`, and returns once it is written; events are kept in the order they were recorded or
    /// submitted.
    func record(_ event: AuditEvent) async throws

    /// Appends `event` without waiting for it to be written, in its turn among the recorded and submitted events; a
    /// failure to write it goes to `logger`. The host submits its opens (CheckFileInfo, which every editor repeats
    /// while a document is open), so that their answers do not wait for the log; its other events are recorded.
    ///
    /// The default records `event` and waits, as ``record(_:)`` does. A log that queues instead also implements
    /// ``flush()``, and its ``events(matching:)`` includes every event submitted before it was called.
    func submit(_ event: AuditEvent, reportingFailuresTo logger: Logger) async

    /// Returns once every event submitted before is written or has failed: what a host does before it exits. The
    /// default returns at once.
    func flush() async

    /// The events that match `query`, oldest first, including every event recorded or submitted before the call.
    func events(matching query: AuditQuery) async throws -> [AuditEvent]
}

extension AuditLog {
    /// Records `event` and waits for it to be written (``record(_:)``); a failure goes to `logger`.
    public func submit(_ event: AuditEvent, reportingFailuresTo logger: Logger) async {
        await record(event, reportingFailuresTo: logger)
    }

    /// Returns at once: ``submit(_:reportingFailuresTo:)`` by default waits for each event.
    public func flush() async {}
}

/// One thing that happened, as an ``AuditLog`` keeps it.
public struct AuditEvent: Sendable, Hashable, Codable {
    /// What happened.
    public struct Action: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The action's name in the log (`sign-in`, `save`, …).
        public let rawValue: String
        /// The action named `rawValue` (one of the cases below, or a provider's own).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// ``rawValue``.
        public var description: String { rawValue }

        /// A password sign-in or client authentication succeeded (`userID`: the user or `client:ID`).
        public static let signIn = Action(rawValue: "sign-in")
        /// A password sign-in or client authentication failed.
        public static let signInFailed = Action(rawValue: "sign-in-failed")
        /// An attempt was refused while the account or the address was locked out.
        public static let signInThrottled = Action(rawValue: "sign-in-throttled")
        /// Tokens were issued for `userID`: OAuth tokens to a client (`details`: `client`, `scope`, `refreshToken`),
        /// or a WOPI access token for `itemID` (`details`: `kind` `wopi`, `via` what asked for it, `permission`).
        public static let tokenMinted = Action(rawValue: "token-minted")
        /// A WOPI client opened a file (CheckFileInfo).
        public static let open = Action(rawValue: "open")
        /// A file was saved (PutFile): `details` carry `editors`, `autosave`, `exitSave`, `size`.
        public static let save = Action(rawValue: "save")
        /// A file was created next to another (PutRelativeFile): `details["name"]`, `details["newItem"]`.
        public static let putRelative = Action(rawValue: "put-relative")
        /// A file or container was renamed (`details["name"]`: the new name).
        public static let rename = Action(rawValue: "rename")
        /// A file or container was deleted.
        public static let delete = Action(rawValue: "delete")
        /// An item was shared (`details["with"]`, `details["permission"]`) or a share link made (`details["link"]`).
        public static let share = Action(rawValue: "share")
        /// A share or a share link was revoked.
        public static let unshare = Action(rawValue: "unshare")
        /// A lock request or PutFile was refused because another lock holds the file.
        public static let lockConflict = Action(rawValue: "lock-conflict")
        /// An operator broke the locks on `itemID` (`details["locks"]`: how many were held).
        public static let lockBreak = Action(rawValue: "lock-break")
        /// A user redeemed a share link to `itemID` (`details`: `permission` of the link, `granted` whether it gave
        /// the user a share, `grantor`).
        public static let shareLinkRedeemed = Action(rawValue: "share-link-redeemed")
        /// An earlier version of `itemID` was restored as its new current content (`details`: `version`, the
        /// restored one, and `newVersion`).
        public static let versionRestore = Action(rawValue: "version-restore")
        /// An earlier version of `itemID` was deleted (`details["version"]`).
        public static let versionDelete = Action(rawValue: "version-delete")
        /// A WOPI request failed the proof-key check (`details["check"]`).
        public static let proofFailure = Action(rawValue: "proof-failure")
    }

    /// When it happened.
    public var date: Date
    /// What happened.
    public var action: Action
    /// Who did it: a user ID, `client:ID` for an OAuth client, `nil` when unknown (a sign-in as nobody).
    public var userID: String?
    /// The file or container it concerns.
    public var itemID: String?
    /// The client's address, where known (sign-ins).
    public var address: String?
    /// What else there is to say, never a secret (see ``Action``'s cases).
    public var details: [String: String]

    /// An event.
    public init(
        _ action: Action, at date: Date, userID: String? = nil, itemID: String? = nil, address: String? = nil,
        details: [String: String] = [:]
    ) {
        self.date = date
        self.action = action
        self.userID = userID
        self.itemID = itemID
        self.address = address
        self.details = details
    }

    /// Whether the event matches `query`.
    public func matches(_ query: AuditQuery) -> Bool {
        (query.since.map { date >= $0 } ?? true) && (query.userID.map { userID == $0 } ?? true)
            && (query.itemID.map { itemID == $0 } ?? true)
    }
}

/// Which ``AuditEvent``s to read.
public struct AuditQuery: Sendable, Hashable {
    /// Events at or after this date.
    public var since: Date?
    /// Events of this user.
    public var userID: String?
    /// Events about this item.
    public var itemID: String?

    /// Every event, or those of `userID`, about `itemID`, since `since`.
    public init(since: Date? = nil, userID: String? = nil, itemID: String? = nil) {
        self.since = since
        self.userID = userID
        self.itemID = itemID
    }
}

extension AuditLog {
    /// Records `event`; a failure is logged to `logger` as an error instead of thrown, for the callers whose work
    /// must go on without its record (a save, a sign-in).
    package func record(_ event: AuditEvent, reportingFailuresTo logger: Logger) async {
        do {
            try await record(event)
        } catch {
            logger.auditLogRefused(event, error)
        }
    }
}

extension Logger {
    /// Logs that an audit log refused `event` with `error`, for callers that go on without its record.
    package func auditLogRefused(_ event: AuditEvent, _ error: any Error) {
        self.error("The audit log refused an event", metadata: ["action": "\(event.action)", "error": "\(error)"])
    }
}
