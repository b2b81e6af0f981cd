public import Foundation
import WOPIHTTPEdge
import WOPIModels
public import WOPIStorage

/// The co-authoring lock rules of CSPP Plus (Microsoft's "locks-about", "get-coauth-lock", "refresh-coauth-lock",
/// "unlock-coauth-lock" and "wopi-locks" pages, as `Docs/cspp-plus.md` sums them up) as a pure function: given a
/// file's locks and a request, what happens.
///
/// Nothing here does I/O. The host reads the file's WOPI lock and coauth table from its `LockStore`, asks
/// ``decide(_:state:holder:now:)``, and applies the new table with one compare-and-swap (deciding again if the swap
/// finds the table changed meanwhile), exactly as it applies ``LockRules``.
///
/// - `Coauth` locks: any number of clients at once. `CoauthExclusive`: at most one client; while it is held only
///   its holder writes. Each lock belongs to a client's `CoauthLockId`, not to a user.
/// - A WOPI lock and coauth locks exclude each other.
/// - Timeouts are 60 to 3600 seconds; metadata is at most 4 KB.
public enum CoauthLockRules {
    /// The accepted `X-WOPI-CoauthLockExpirationTimeout` and `X-WOPI-LockExpirationTimeout`, in seconds.
    public static let timeoutRange: ClosedRange<Int> = 60...3600
    /// The longest metadata accepted, in UTF-8 bytes.
    public static let maximumMetadataBytes = 4096
    /// The longest `CoauthLockId` accepted, in ASCII characters.
    public static let maximumIDLength = 1024

    /// A file's locks as a decision reads them: the unexpired WOPI lock and coauth locks.
    public struct State: Sendable, Hashable {
        /// The unexpired WOPI lock, if any.
        public var wopiLock: FileLock?
        /// The unexpired coauth locks.
        public var coauthLocks: [CoauthLock]

        /// Creates a state.
        public init(wopiLock: FileLock? = nil, coauthLocks: [CoauthLock] = []) {
            self.wopiLock = wopiLock
            self.coauthLocks = coauthLocks
        }
    }

    /// A coauth-lock request. Values are the raw header values (or the JSON body's metadata); `nil` means absent.
    public enum Request: Sendable, Hashable {
        /// GetCoauthLock.
        case getCoauthLock(id: String?, type: String?, timeout: String?, metadata: String?)
        /// RefreshCoauthLock: absent or empty metadata keeps the lock's metadata.
        case refreshCoauthLock(id: String?, timeout: String?, metadata: String?)
        /// UnlockCoauthLock.
        case unlockCoauthLock(id: String?)
    }

    /// The lock mechanism a request ran into (`X-WOPI-ConflictingMechanism`).
    public enum Mechanism: Sendable, Hashable {
        /// A WOPI lock with this ID: the conflict answers it in `X-WOPI-Lock`.
        case wopiLock(String)
        /// Coauth locks, none of them exclusive.
        case coauthLock
        /// A `CoauthExclusive` lock.
        case coauthExclusiveLock

        /// The `X-WOPI-ConflictingMechanism` value (the validator's spelling).
        public var headerValue: String {
            switch self {
            case .wopiLock: "WOPI-Lock"
            case .coauthLock: "WOPI-CoauthLock"
            case .coauthExclusiveLock: "WOPI-CoauthExclusiveLock"
            }
        }
    }

    /// Why a request cannot proceed (`409`).
    public struct Conflict: Sendable, Hashable {
        /// What it ran into; `nil` when it names a coauth lock that is not held.
        public var mechanism: Mechanism?
        /// For the log and `X-WOPI-LockFailureReason`.
        public var reason: String
        /// `X-WOPI-ConflictingLockUsername`: the holder of the WOPI lock in the way, if it asked to be visible.
        public var conflictingUser: String?

        /// Creates a conflict.
        public init(mechanism: Mechanism?, reason: String, conflictingUser: String? = nil) {
            self.mechanism = mechanism
            self.reason = reason
            self.conflictingUser = conflictingUser
        }
    }

    /// The decision for a request.
    public enum Decision: Sendable, Hashable {
        /// `400`: a header is missing or malformed.
        case badRequest(String)
        /// `409`.
        case conflict(Conflict)
        /// Go ahead; then the file's coauth table is `table` (`nil`: unchanged).
        case proceed(table: [CoauthLock]?)
    }

    /// A write that a client may present a `CoauthLockId` for.
    public enum Write: Sendable, Hashable {
        /// PutFile (and every other change of the content).
        case putFile
        /// RenameFile.
        case renameFile
    }

    /// Decides a coauth-lock request against `state`.
    ///
    /// - Parameters:
    ///   - holder: the requesting user's friendly name, recorded on a new lock.
    ///   - now: the time a new expiry counts from.
    public static func decide(_ request: Request, state: State, holder: String, now: Date) -> Decision {
        switch request {
        case .getCoauthLock(let id, let type, let timeout, let metadata):
            guard let id = validID(id) else { return badID }
            guard let type = type.flatMap(CoauthLockType.init(rawValue:)) else {
                return .badRequest("X-WOPI-CoauthLockType must be Coauth or CoauthExclusive.")
            }
            guard let seconds = validTimeout(timeout) else { return badTimeout("X-WOPI-CoauthLockExpirationTimeout") }
            guard let metadata = validMetadata(metadata) else { return badMetadata }
            if let conflict = wopiLockConflict(state) { return .conflict(conflict) }
            if type == .coauthExclusive, let exclusive = exclusiveHolder(state, other: id) {
                return .conflict(
                    Conflict(
                        mechanism: .coauthExclusiveLock,
                        reason: "Another session (\(exclusive.id)) holds the CoauthExclusive lock."))
            }
            var table = state.coauthLocks.filter { $0.id != id }
            let existing = state.coauthLocks.first { $0.id == id }
            table.append(
                CoauthLock(
                    id: id, type: type, metadata: metadata, holder: existing?.holder ?? holder,
                    takenAt: existing?.takenAt ?? now, expiresAt: now.addingTimeInterval(TimeInterval(seconds))))
            return .proceed(table: sorted(table))
        case .refreshCoauthLock(let id, let timeout, let metadata):
            guard let id = validID(id) else { return badID }
            guard let seconds = validTimeout(timeout) else { return badTimeout("X-WOPI-CoauthLockExpirationTimeout") }
            guard let metadata = validMetadata(metadata) else { return badMetadata }
            guard var lock = state.coauthLocks.first(where: { $0.id == id }) else { return notHeld(id, state) }
            lock.expiresAt = now.addingTimeInterval(TimeInterval(seconds))
            if !metadata.isEmpty { lock.metadata = metadata }
            return .proceed(table: sorted(state.coauthLocks.filter { $0.id != id } + [lock]))
        case .unlockCoauthLock(let id):
            guard let id = validID(id) else { return badID }
            guard state.coauthLocks.contains(where: { $0.id == id }) else { return notHeld(id, state) }
            return .proceed(table: state.coauthLocks.filter { $0.id != id })
        }
    }

    /// Decides what coauth locks say about a write presenting `coauthLockID` and `wopiLock` (`X-WOPI-Lock`); an
    /// empty header counts as absent (Microsoft's validator sends both headers on RenameFile, empty when unused).
    ///
    /// - Returns: `nil` when coauth locks have no say (none is held and none is presented): ``LockRules`` decides.
    ///   Otherwise ``Decision/proceed(table:)`` with `nil` (the WOPI lock rules are then not asked), or the refusal.
    public static func decideWrite(_ write: Write, coauthLockID: String?, wopiLock: String?, state: State)
        -> Decision?
    {
        let coauthLockID = coauthLockID?.isEmpty == false ? coauthLockID : nil
        if coauthLockID != nil, wopiLock?.isEmpty == false {
            return .badRequest("Send X-WOPI-Lock or X-WOPI-CoauthLockId, not both.")
        }
        guard !state.coauthLocks.isEmpty else {
            guard let coauthLockID else { return nil }
            if let conflict = wopiLockConflict(state) { return .conflict(conflict) }
            // RenameFile presenting a coauth lock on an unlocked file goes ahead (the validator's
            // RenameFileWithCoauthLockSupported); a content write must hold the lock it presents.
            return write == .renameFile
                ? .proceed(table: nil)
                : .conflict(Conflict(mechanism: nil, reason: "No coauth lock \(coauthLockID) is held on the file."))
        }
        guard let coauthLockID else {
            return .conflict(
                Conflict(
                    mechanism: coauthMechanism(state), reason: "The file is being co-authored; present a coauth lock."))
        }
        guard state.coauthLocks.contains(where: { $0.id == coauthLockID }) else {
            return .conflict(
                Conflict(
                    mechanism: coauthMechanism(state), reason: "No coauth lock \(coauthLockID) is held on the file."))
        }
        if exclusiveHolder(state, other: coauthLockID) != nil {
            return .conflict(
                Conflict(mechanism: .coauthExclusiveLock, reason: "Another session holds the CoauthExclusive lock."))
        }
        return .proceed(table: nil)
    }

    /// Decides what coauth locks say about a WOPI-lock request (Lock, UnlockAndRelock, RefreshLock, Unlock,
    /// DeleteFile, an overwrite): `nil` when no coauth lock is held or the request is GetLock (``LockRules``
    /// decides), else a conflict that must not carry `X-WOPI-Lock`.
    public static func decideWOPILockRequest(_ request: LockRules.Request, state: State) -> Decision? {
        guard !state.coauthLocks.isEmpty, request != .getLock else { return nil }
        return .conflict(
            Conflict(
                mechanism: coauthMechanism(state), reason: "The file is being co-authored (coauth locks are held)."))
    }

    /// Validates `X-WOPI-LockExpirationTimeout` on Lock, RefreshLock and UnlockAndRelock.
    ///
    /// - Returns: the lock duration in seconds (`defaultDuration` when the header is absent), or the refusal.
    public static func wopiLockDuration(_ header: String?, defaultDuration: TimeInterval) -> Result<
        TimeInterval, Refusal
    > {
        guard let header else { return .success(defaultDuration) }
        guard let seconds = validTimeout(header) else {
            return .failure(Refusal(message: timeoutMessage("X-WOPI-LockExpirationTimeout")))
        }
        return .success(TimeInterval(seconds))
    }

    /// A `400` refusal's message.
    public struct Refusal: Error, Sendable, Hashable {
        /// What was wrong with the request.
        public var message: String
    }

    /// The table's `CoauthTableVersion`: it changes whenever a row changes (a lock taken, dropped, expired, or its
    /// type, metadata or holder changed) and not when only an expiry moves. Equal tables, on any host, give
    /// equal versions.
    public static func tableVersion(of locks: [CoauthLock]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        func mix(_ text: String) {
            for byte in text.utf8 + [0] {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        for lock in sorted(locks) {
            mix(lock.id)
            mix(lock.type.rawValue)
            mix(lock.metadata)
            mix(lock.holder)
            mix(String(EpochMilliseconds.from(lock.takenAt)))
        }
        let hex = String(hash, radix: 16)
        return "v" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: - Parts

    private static func sorted(_ locks: [CoauthLock]) -> [CoauthLock] { locks.sorted { $0.id < $1.id } }

    private static func validID(_ id: String?) -> String? {
        guard let id, !id.isEmpty, id.utf8.count <= maximumIDLength,
            id.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return nil }
        return id
    }

    private static func validTimeout(_ value: String?) -> Int? {
        guard let value, let seconds = RequestNumber.nonNegative(value).flatMap({ Int(exactly: $0) }),
            timeoutRange.contains(seconds)
        else { return nil }
        return seconds
    }

    private static func validMetadata(_ metadata: String?) -> String? {
        let metadata = metadata ?? ""
        return metadata.utf8.count <= maximumMetadataBytes ? metadata : nil
    }

    private static var badID: Decision {
        .badRequest("X-WOPI-CoauthLockId must be 1 to \(maximumIDLength) printable ASCII characters.")
    }

    private static var badMetadata: Decision {
        .badRequest("The coauth lock metadata must be at most \(maximumMetadataBytes) bytes.")
    }

    private static func timeoutMessage(_ header: String) -> String {
        "\(header) must be a whole number of seconds from \(timeoutRange.lowerBound) to \(timeoutRange.upperBound)."
    }

    private static func badTimeout(_ header: String) -> Decision { .badRequest(timeoutMessage(header)) }

    private static func wopiLockConflict(_ state: State) -> Conflict? {
        guard let wopi = state.wopiLock else { return nil }
        return Conflict(
            mechanism: .wopiLock(wopi.id), reason: "The file has a WOPI lock.", conflictingUser: wopi.visibleName)
    }

    private static func exclusiveHolder(_ state: State, other id: String) -> CoauthLock? {
        state.coauthLocks.first { $0.type == .coauthExclusive && $0.id != id }
    }

    private static func coauthMechanism(_ state: State) -> Mechanism {
        state.coauthLocks.contains { $0.type == .coauthExclusive } ? .coauthExclusiveLock : .coauthLock
    }

    private static func notHeld(_ id: String, _ state: State) -> Decision {
        if let conflict = wopiLockConflict(state) { return .conflict(conflict) }
        return .conflict(Conflict(mechanism: nil, reason: "No unexpired coauth lock \(id) is held on the file."))
    }
}
