import Foundation

/// Serialises the changes to one storage root among the threads of this process and among processes.
///
/// An `NSLock` orders this instance's threads; an exclusive `flock(2)` on `.wopikit/lock` orders processes (and
/// other instances on the same root, since each opens the lock file itself). Held only for the short, synchronous
/// commit step of a change, never while content streams.
final class TreeLock: Sendable {
    private let threads = NSLock()
    private let file: Descriptor

    init(file: Descriptor) {
        self.file = file
    }

    func withLock<T>(_ body: () throws -> T) throws -> T {
        threads.lock()
        defer { threads.unlock() }
        try file.advisoryLock(LOCK_EX)
        defer { try? file.advisoryLock(LOCK_UN) }
        return try body()
    }
}
