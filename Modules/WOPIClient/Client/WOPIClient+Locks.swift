import HTTPTypes
import WOPIHTTPEdge
import WOPIModels

extension WOPIClient {
    /// Lock: locks the file with `lockID` (or refreshes it when already held with that ID); returns the file's
    /// version (`X-WOPI-ItemVersion`).
    ///
    /// - Throws: ``WOPIClientError/Code/lockConflict`` with the current lock when another lock is held.
    @discardableResult
    public func lock(_ file: WOPIResource, lockID: String) async throws -> String? {
        try await lockCall("Lock", WOPIOverride.lock, file, [WOPIHeader.lock: lockID])
    }

    /// GetLock: the current lock ID, `""` when unlocked.
    public func getLock(_ file: WOPIResource) async throws -> String {
        try requireKind(.file, file, "GetLock")
        var call = Call("GetLock", .post, file)
        call.set(WOPIHeader.override, WOPIOverride.getLock)
        let response = try await send(call)
        await Self.discard(response.body)
        return response.headers[.wopiLock] ?? ""
    }

    /// RefreshLock: resets the lock's 30-minute timer.
    public func refreshLock(_ file: WOPIResource, lockID: String) async throws {
        _ = try await lockCall("RefreshLock", WOPIOverride.refreshLock, file, [WOPIHeader.lock: lockID])
    }

    /// Unlock: releases the lock; returns the file's version.
    @discardableResult
    public func unlock(_ file: WOPIResource, lockID: String) async throws -> String? {
        try await lockCall("Unlock", WOPIOverride.unlock, file, [WOPIHeader.lock: lockID])
    }

    /// UnlockAndRelock: atomically replaces lock `oldLockID` with `newLockID`; returns the file's version.
    @discardableResult
    public func unlockAndRelock(_ file: WOPIResource, oldLockID: String, newLockID: String) async throws -> String? {
        try await lockCall(
            "UnlockAndRelock", WOPIOverride.lock, file, [WOPIHeader.lock: newLockID, WOPIHeader.oldLock: oldLockID])
    }

    private func lockCall(_ name: String, _ override: String, _ file: WOPIResource, _ headers: [String: String])
        async throws -> String?
    {
        try requireKind(.file, file, name)
        var call = Call(name, .post, file)
        call.set(WOPIHeader.override, override)
        for (header, value) in headers { call.set(header, value) }
        let response = try await send(call)
        await Self.discard(response.body)
        return response.headers[.wopiItemVersion]
    }
}
