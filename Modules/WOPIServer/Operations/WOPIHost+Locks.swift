import Foundation
import HTTPTypes
import Metrics
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// Decides a lock-relevant request with ``LockRules`` and applies the decision with one compare-and-swap,
    /// deciding again if another request changed the lock in between. Returns the lock as it is afterwards.
    ///
    /// With co-authoring on (``WOPIHostConfiguration/coauthoring``), ``CoauthLockRules`` speaks first: coauth locks
    /// held on the file refuse WOPI-lock requests, and decide writes presenting `X-WOPI-CoauthLockId`; and the
    /// CSPP Plus lock extensions of `request` apply (`X-WOPI-LockExpirationTimeout`, `X-WOPI-LockUserVisible`).
    @discardableResult
    func applyLockRules(
        _ lockRequest: LockRules.Request, on file: ItemID, request: WOPIRequest? = nil, user: WOPIUser? = nil
    ) async throws -> FileLock? {
        let coauthoring = configuration.coauthoring != nil
        let duration = try lockDuration(coauthoring && lockRequest.setsLock ? request : nil)
        let visible = coauthoring && request?.header(WOPIHeader.lockUserVisible)?.lowercased() == "true"
        for _ in 0..<16 {
            let current = try await TracedWork.database.traced("database.lock", item: file) {
                try await locks.lock(on: file)
            }
            if coauthoring, let decision = try await coauthDecision(lockRequest, current, file, request) {
                switch decision {
                case .badRequest(let message): throw WOPIHTTPError.badRequest(message)
                case .conflict(let conflict): throw Self.coauthConflict(conflict)
                case .proceed: return current
                }
            }
            switch LockRules.decide(lockRequest, current: current?.id) {
            case .badRequest(let message):
                throw WOPIHTTPError.badRequest(message)
            case .conflict(let currentLock, let reason):
                metrics.lockConflicts.increment()
                var error = WOPIHTTPError.lockConflict(current: currentLock, reason: reason)
                if coauthoring, let current {
                    error.headers[.wopiConflictingMechanism] = CoauthLockRules.Mechanism.wopiLock("").headerValue
                    if let name = current.visibleName { error.headers[.wopiConflictingLockUsername] = name }
                }
                throw error
            case .proceed(.keep):
                return current
            case .proceed(.set(let id)):
                let now = now()
                let lock = FileLock(
                    id: id, expiresAt: now.addingTimeInterval(duration), holder: user?.displayName,
                    visibleName: visible ? user?.displayName : nil,
                    takenAt: current?.id == id ? current?.takenAt ?? now : now)
                switch try await swapLock(on: file, expected: current?.id, new: lock) {
                case .swapped: return lock
                case .conflict: continue
                case .coauthLocked where coauthoring: continue  // decided again: the coauth rules refuse it
                case .coauthLocked: throw WOPIHTTPError.lockConflict(current: "", reason: "The file is co-authored.")
                }
            case .proceed(.clear):
                if case .swapped = try await swapLock(on: file, expected: current?.id, new: nil) {
                    return nil
                }
            }
        }
        throw WOPIHTTPError(.serviceUnavailable, "The lock on this file changes too fast; try again.")
    }

    /// The lock store's compare-and-swap, in a `database.compareAndSwap` span.
    private func swapLock(on file: ItemID, expected: String?, new: FileLock?) async throws -> LockSwapOutcome {
        try await TracedWork.database.traced("database.compareAndSwap", item: file) {
            try await locks.compareAndSwap(file: file, expected: expected, new: new)
        }
    }

    /// What ``CoauthLockRules`` say about a WOPI-lock request or a write, `nil` when they leave it to ``LockRules``.
    private func coauthDecision(
        _ lockRequest: LockRules.Request, _ current: FileLock?, _ file: ItemID, _ request: WOPIRequest?
    ) async throws -> CoauthLockRules.Decision? {
        let coauthLockID = request?.header(WOPIHeader.coauthLockID).flatMap { $0.isEmpty ? nil : $0 }
        let table = try await TracedWork.database.traced("database.coauthLocks", item: file) {
            try await locks.coauthLocks(on: file)
        }
        if table.locks.isEmpty, coauthLockID == nil { return nil }  // the common case: nothing to say
        let state = CoauthLockRules.State(wopiLock: current, coauthLocks: table.locks)
        switch lockRequest {
        case .putFile(let lock, _):
            return CoauthLockRules.decideWrite(.putFile, coauthLockID: coauthLockID, wopiLock: lock, state: state)
        case .renameFile(let lock):
            return CoauthLockRules.decideWrite(.renameFile, coauthLockID: coauthLockID, wopiLock: lock, state: state)
        default:
            return CoauthLockRules.decideWOPILockRequest(lockRequest, state: state)
        }
    }

    /// The duration of a lock taken or refreshed by `request`: its `X-WOPI-LockExpirationTimeout` (CSPP Plus), or
    /// ``WOPIHostConfiguration/lockDuration``.
    private func lockDuration(_ request: WOPIRequest?) throws -> TimeInterval {
        let header = request?.header(WOPIHeader.lockExpirationTimeout)
        switch CoauthLockRules.wopiLockDuration(header, defaultDuration: configuration.lockDuration) {
        case .success(let duration): return duration
        case .failure(let refusal): throw WOPIHTTPError.badRequest(refusal.message)
        }
    }

    /// The `409` of a coauth-rule conflict: `X-WOPI-Lock` only when a WOPI lock is in the way.
    static func coauthConflict(_ conflict: CoauthLockRules.Conflict) -> WOPIHTTPError {
        var error = WOPIHTTPError(.conflict, conflict.reason)
        error.headers[.wopiLockFailureReason] = conflict.reason
        if let mechanism = conflict.mechanism {
            error.headers[.wopiConflictingMechanism] = mechanism.headerValue
            if case .wopiLock(let id) = mechanism { error.headers[.wopiLock] = id }
        }
        if let name = conflict.conflictingUser { error.headers[.wopiConflictingLockUsername] = name }
        return error
    }

    /// Lock, UnlockAndRelock, RefreshLock and Unlock (Docs/wopi-protocol.md §5), decided by ``LockRules``; all but
    /// RefreshLock answer the file's version. A view-only user never gets here: the door answers 401, or 200 and no
    /// lock where ``WOPIHostConfiguration/viewOnlyLocks`` acknowledges them (ONLYOFFICE).
    func changeLock(
        _ change: LockRules.Request, file id: ItemID, request: WOPIRequest, context: RequestContext
    ) async throws -> WOPIResponse {
        var response = WOPIResponse(status: .ok)
        try await applyLockRules(change, on: id, request: request, user: context.user)
        if case .refreshLock = change { return response }
        // A lock does not change the content: authorization's read of the file has its version.
        response.headers[.wopiItemVersion] = try await context.file(id, in: storage).version
        return response
    }

    /// GetLock: the current lock in `X-WOPI-Lock`, empty when the file is unlocked.
    func getLock(_ id: ItemID) async throws -> WOPIResponse {
        var response = WOPIResponse(status: .ok)
        response.headers[.wopiLock] = try await applyLockRules(.getLock, on: id)?.id ?? ""
        return response
    }
}

extension LockRules.Request {
    /// Whether the request takes or renews a lock (Lock, UnlockAndRelock, RefreshLock): the requests whose
    /// duration `X-WOPI-LockExpirationTimeout` sets.
    fileprivate var setsLock: Bool {
        switch self {
        case .lock, .unlockAndRelock, .refreshLock: true
        default: false
        }
    }
}
