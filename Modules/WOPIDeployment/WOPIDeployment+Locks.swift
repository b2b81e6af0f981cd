import Foundation
import Logging
import WOPIServer
public import WOPIStorage

extension WOPIDeployment {
    /// Every unexpired lock of every file, WOPI and coauth: the file, the lock ID, who took it and when (when
    /// known), and when it lapses. `wopi-host locks` prints it.
    public func heldLocks() async throws -> [HeldLock] {
        try await stores.locks.heldLocks()
    }

    /// Ends every lock on `file`, WOPI and coauth, so that a new session can lock it: for a lock left behind by a
    /// client that went away. The editors still open on the file lose their lock and, at their next save,
    /// get a conflict. `wopi-host locks --break FILE` calls it. The break is recorded in the stores' audit log
    /// (`lock-break`, with how many locks were ended).
    ///
    /// - Returns: how many unexpired locks were ended.
    @discardableResult
    public func breakLocks(on file: ItemID) async throws -> Int {
        let ended = try await stores.locks.breakLocks(on: file)
        logger.notice("An operator broke the locks on a file", metadata: ["file": "\(file)", "locks": "\(ended)"])
        await stores.audit?.record(
            AuditEvent(.lockBreak, at: Date(), itemID: file.rawValue, details: ["locks": "\(ended)"]),
            reportingFailuresTo: logger)
        return ended
    }
}
