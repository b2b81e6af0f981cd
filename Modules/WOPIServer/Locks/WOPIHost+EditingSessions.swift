public import Foundation
import Logging
public import WOPIStorage

extension WOPIHost {
    /// A page of the host opened `file` for editing in a WOPI client: the session counts as open until it is
    /// closed with ``editingSessionEnded(file:session:)`` or `until` passes (the access token's expiry).
    ///
    /// - Parameter session: an ID the page keeps for this opening, unique among the file's sessions.
    public func editingSessionOpened(file: ItemID, session: String, until: Date) async {
        await editingSessions.opened(file, session: session, until: until)
    }

    /// The user closed the editing session explicitly (the WOPI client posted `UI_Close`). When it was the file's
    /// last open session, ``WOPIHostConfiguration/endedSessionLocks`` decides what happens to a lock the WOPI client
    /// did not release: with ``WOPIHostConfiguration/EndedSessionLocks/releaseAfterClose(grace:)`` it lapses `grace`
    /// from now instead of up to 30 minutes, so the next user does not find the document read-only. The lock is
    /// shortened, not removed: the client's exit save (a PutFile with the lock, after the last user left) still
    /// passes, and a RefreshLock or Lock from a session still alive gives it its 30 minutes back.
    ///
    /// - Returns: the lock's new expiry when it was shortened, `nil` when nothing changed.
    @discardableResult
    public func editingSessionEnded(file: ItemID, session: String) async throws -> Date? {
        let last = await editingSessions.closed(file, session: session, now: now())
        guard last, case .releaseAfterClose(let grace) = configuration.endedSessionLocks else { return nil }
        for _ in 0..<16 {
            guard let current = try await locks.lock(on: file) else { return nil }
            let expiry = min(current.expiresAt, now().addingTimeInterval(grace))
            guard expiry < current.expiresAt else { return nil }
            let shortened = FileLock(id: current.id, expiresAt: expiry)
            if case .swapped = try await locks.compareAndSwap(file: file, expected: current.id, new: shortened) {
                logger.info(
                    "The last editing session closed: the lock lapses soon",
                    metadata: ["file": "\(file)", "grace": "\(grace)"])
                return expiry
            }
        }
        return nil
    }
}
