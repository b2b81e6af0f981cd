import WOPIModels

/// The WOPI lock rules (Docs/wopi-protocol.md §5.3) as a pure function: given the current lock and a request, what
/// happens.
///
/// Nothing here does I/O. The host reads the current lock from its `LockStore`, asks ``decide(_:current:)``,
/// and applies the decision with one compare-and-swap (retrying the decision if the swap finds the lock changed
/// meanwhile), so the rules are tested exhaustively without a store and a store cannot get them wrong.
public enum LockRules {
    /// A lock-relevant request. Lock values are the raw header values; `nil` means the header was absent.
    public enum Request: Sendable, Hashable {
        case lock(String?)
        case unlockAndRelock(old: String?, new: String?)
        case refreshLock(String?)
        case unlock(String?)
        case getLock
        /// PutFile on a file of `currentSize` bytes.
        case putFile(String?, currentSize: Int64)
        case renameFile(String?)
        case deleteFile
        /// Overwriting an existing file through PutRelativeFile or CreateChildFile.
        case overwriteTarget
    }

    /// What to do with the lock when the request proceeds.
    public enum Change: Sendable, Hashable {
        /// Leave it as it is.
        case keep
        /// Set (or reset the timer of) the lock to this ID.
        case set(String)
        /// Remove the lock.
        case clear
    }

    /// The decision for a request.
    public enum Decision: Sendable, Hashable {
        /// `400`: the lock header is missing, empty or not a valid lock ID.
        case badRequest(String)
        /// `409` with `X-WOPI-Lock` set to `current` (the empty string when unlocked).
        case conflict(current: String, reason: String)
        /// Go ahead, then apply `change` to the lock.
        case proceed(Change)
    }

    /// Decides `request` against the current unexpired lock ID (`nil` when unlocked).
    public static func decide(_ request: Request, current: String?) -> Decision {
        switch request {
        case .lock(let new):
            guard let new = validLock(new) else { return missing("Lock") }
            guard let current else { return .proceed(.set(new)) }
            return current == new ? .proceed(.set(new)) : mismatch(current)
        case .unlockAndRelock(let old, let new):
            guard let new = validLock(new) else { return missing("UnlockAndRelock (X-WOPI-Lock)") }
            guard let old = validLock(old) else { return missing("UnlockAndRelock (X-WOPI-OldLock)") }
            guard let current else { return unlocked() }
            return current == old ? .proceed(.set(new)) : mismatch(current)
        case .refreshLock(let lock):
            guard let lock = validLock(lock) else { return missing("RefreshLock") }
            guard let current else { return unlocked() }
            return current == lock ? .proceed(.set(lock)) : mismatch(current)
        case .unlock(let lock):
            guard let lock = validLock(lock) else { return missing("Unlock") }
            guard let current else { return unlocked() }
            return current == lock ? .proceed(.clear) : mismatch(current)
        case .getLock:
            return .proceed(.keep)
        case .putFile(let lock, let currentSize):
            guard let current else {
                return currentSize == 0
                    ? .proceed(.keep)
                    : .conflict(current: "", reason: "The file is not locked and not empty; lock it before PutFile.")
            }
            return current == lock ? .proceed(.keep) : mismatch(current)
        case .renameFile(let lock):
            guard let current else { return .proceed(.keep) }
            return current == lock ? .proceed(.keep) : mismatch(current)
        case .deleteFile, .overwriteTarget:
            guard let current else { return .proceed(.keep) }
            return .conflict(current: current, reason: "The file is locked.")
        }
    }

    private static func validLock(_ value: String?) -> String? {
        guard let value, let lock = LockID(rawValue: value) else { return nil }
        return lock.rawValue
    }

    private static func missing(_ operation: String) -> Decision {
        .badRequest("\(operation) needs a lock ID of 1 to \(LockID.maximumLength) printable ASCII characters.")
    }

    private static func unlocked() -> Decision {
        .conflict(current: "", reason: "The file is not locked.")
    }

    private static func mismatch(_ current: String) -> Decision {
        .conflict(current: current, reason: "The file is locked with another lock ID.")
    }
}
