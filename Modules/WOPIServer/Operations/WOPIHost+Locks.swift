import Foundation
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

    /// Lock, UnlockAndRelock, RefreshLock, Unlock and GetLock.
    func handleLockOperation(_ override: String, file id: ItemID, request: WOPIRequest) async throws -> WOPIResponse {
        let lock = request.header(WOPIHeader.lock)
        var response = WOPIResponse(status: .ok)
        switch override {
        case WOPIOverride.lock:
            if let old = request.header(WOPIHeader.oldLock) {
                try await applyLockRules(.unlockAndRelock(old: old, new: lock), on: id)
            } else {
                try await applyLockRules(.lock(lock), on: id)
            }
            response.setHeader(WOPIHeader.itemVersion, try await storage.file(id).version)
        case WOPIOverride.refreshLock:
            try await applyLockRules(.refreshLock(lock), on: id)
        case WOPIOverride.unlock:
            try await applyLockRules(.unlock(lock), on: id)
            response.setHeader(WOPIHeader.itemVersion, try await storage.file(id).version)
        case WOPIOverride.getLock:
            let current = try await applyLockRules(.getLock, on: id)
            response.setHeader(WOPIHeader.lock, current?.id ?? "")
        default:
            throw unsupported(override, on: "files")
        }
        return response
    }
}
