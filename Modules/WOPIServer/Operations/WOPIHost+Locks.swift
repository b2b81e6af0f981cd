import Foundation
import HTTPTypes
import Metrics
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// Decides a lock-relevant request with ``LockRules`` and applies the decision with one compare-and-swap,
    /// deciding again if another request changed the lock in between. Returns the lock as it is afterwards.
    @discardableResult
    func applyLockRules(_ request: LockRules.Request, on file: ItemID) async throws -> FileLock? {
        for _ in 0..<16 {
            let current = try await locks.lock(on: file)
            switch LockRules.decide(request, current: current?.id) {
            case .badRequest(let message):
                throw WOPIHTTPError.badRequest(message)
            case .conflict(let currentLock, let reason):
                metrics.lockConflicts.increment()
                throw WOPIHTTPError.lockConflict(current: currentLock, reason: reason)
            case .proceed(.keep):
                return current
            case .proceed(.set(let id)):
                let lock = FileLock(id: id, expiresAt: now().addingTimeInterval(configuration.lockDuration))
                if case .swapped = try await locks.compareAndSwap(file: file, expected: current?.id, new: lock) {
                    return lock
                }
            case .proceed(.clear):
                if case .swapped = try await locks.compareAndSwap(file: file, expected: current?.id, new: nil) {
                    return nil
                }
            }
        }
        throw WOPIHTTPError(.serviceUnavailable, "The lock on this file changes too fast; try again.")
    }

    /// Lock, UnlockAndRelock, RefreshLock and Unlock (Docs/wopi-protocol.md §5), decided by ``LockRules``; all but
    /// RefreshLock answer the file's version. A view-only user gets 401, or 200 and no lock where
    /// ``WOPIHostConfiguration/viewOnlyLocks`` acknowledges them (ONLYOFFICE).
    func changeLock(_ change: LockRules.Request, file id: ItemID, context: RequestContext) async throws
        -> WOPIResponse
    {
        var response = WOPIResponse(status: .ok)
        if !context.access.canWrite, configuration.viewOnlyLocks == .acknowledge { return response }
        try context.require(context.access.canWrite, "locking the file")
        try await applyLockRules(change, on: id)
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
