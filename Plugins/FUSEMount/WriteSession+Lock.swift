import Foundation
import Logging
import NIOConcurrencyHelpers
import WOPIStorage

extension WriteSession {
    // MARK: - The lock (taken at preparation, refreshed while ready, released at the end)

    /// Takes the lock (`compareAndSwap(expected: nil, …)`).
    ///
    /// - Throws: `EACCES` when someone else holds the lock or the file is being co-authored.
    func lock() async throws {
        let configuration = environment.configuration
        for _ in 0..<2 {
            let lock = FileLock(id: lockID, expiresAt: configuration.now() + configuration.lockDuration.timeInterval)
            switch try await environment.lockStore.compareAndSwap(file: itemID, expected: nil, new: lock) {
            case .swapped:
                try update { try $0.lockTaken() }
                environment.logger.debug(
                    "Locked file for writing", metadata: ["item": "\(itemID)", "lock": "\(lockID)"])
                return
            case .conflict(let current?):
                let name = state.withLockedValue { $0.machine.name }
                environment.logger.warning(
                    "Refusing to open \"\(name)\" for writing: it is locked by someone else (EACCES)",
                    metadata: [
                        "item": "\(itemID)", "lock": "\(current.id)", "lockExpires": "\(current.expiresAt)",
                    ])
                throw FileSystemFailure(
                    EACCES,
                    "\"\(name)\" is locked by someone else (lock \(current.id) until \(current.expiresAt)); "
                        + "close it there or wait for the lock to lapse.")
            case .conflict(nil):
                continue  // The lock lapsed between the check and the swap; try once more.
            case .coauthLocked:
                let name = state.withLockedValue { $0.machine.name }
                environment.logger.warning(
                    "Refusing to open \"\(name)\" for writing: it is being co-authored (EACCES)",
                    metadata: ["item": "\(itemID)"])
                throw FileSystemFailure(
                    EACCES, "\"\(name)\" is being co-authored in Office; close it there or wait for the session to end."
                )
            }
        }
        throw FileSystemFailure(EIO, "The lock store keeps refusing to lock \(itemID); check the lock store.")
    }

    /// Refreshes the lock every `lockRefreshInterval` until ``finish()`` cancels it.
    func startRefreshingLock() {
        let environment = environment
        let itemID = itemID
        let lockID = lockID
        let task = Task {
            let configuration = environment.configuration
            while true {
                do {
                    try await configuration.clock.sleep(for: configuration.lockRefreshInterval)
                } catch {
                    return
                }
                do {
                    let lock = FileLock(
                        id: lockID, expiresAt: configuration.now() + configuration.lockDuration.timeInterval)
                    let outcome = try await environment.bounded { _ in
                        try await environment.lockStore.compareAndSwap(file: itemID, expected: lockID, new: lock)
                    }
                    if case .conflict(let current) = outcome {
                        environment.logger.error(
                            "Lost the lock on a file open for writing; the upload may end in a conflict copy",
                            metadata: ["item": "\(itemID)", "lock": "\(lockID)", "current": "\(current?.id ?? "none")"])
                    }
                } catch {
                    environment.logger.warning(
                        "Could not refresh the lock on a file open for writing; will retry",
                        metadata: ["item": "\(itemID)", "error": "\(error)"])
                }
            }
        }
        let cancelNow = state.withLockedValue { state in
            guard state.machine.refreshesLock else { return true }
            state.refresher = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// Releases the lock; returns whether the lock store answered.
    @discardableResult
    func releaseLock() async -> Bool {
        do {
            let outcome = try await environment.bounded { _ in
                try await self.environment.lockStore.compareAndSwap(
                    file: self.itemID, expected: self.lockID, new: nil)
            }
            if case .conflict = outcome {
                environment.logger.warning(
                    "The lock was gone when releasing it", metadata: ["item": "\(itemID)", "lock": "\(lockID)"])
            } else {
                environment.logger.debug("Unlocked file", metadata: ["item": "\(itemID)", "lock": "\(lockID)"])
            }
            return true
        } catch {
            environment.logger.error(
                "Could not release a lock; it lapses on its own",
                metadata: ["item": "\(itemID)", "lock": "\(lockID)", "error": "\(error)"])
            return false
        }
    }
}
