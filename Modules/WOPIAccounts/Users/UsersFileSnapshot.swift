import Foundation
import WOPIFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The users of a `users.json` as decoded, with the identity of the file they were decoded from.
///
/// ``FileUserDirectory`` keeps one, so a read that finds the file unchanged (one `stat`) skips reading and
/// decoding it. The file counts as unchanged when its device, inode, size, modification time and change time (to
/// the nanosecond) are all those of the snapshot: an atomic replacement (a new inode) or an edit in place (new
/// times) is seen by the next read.
///
/// File times come from a clock with a coarse tick (a jiffy on Linux, whole seconds on some file systems), so a
/// second edit within the tick of the first could leave the times unchanged. A snapshot is therefore only trusted
/// when the file's change time is at least ``settlingTime`` older than the `stat` that found it: every later edit
/// then gets a later change time. A file changed more recently than that is read and decoded again each time, as
/// Git treats "racily clean" index entries.
struct UsersFileSnapshot: Sendable {
    /// How much older than the `stat` a file's change time must be for the snapshot to be trusted.
    static let settlingTime: TimeInterval = 2

    /// What `stat` says about the file, or `nil` when it does not exist.
    struct Identity: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var changed: timespec

        /// Stats the file at `path` (a metadata read, served from the inode cache); `nil` when it does not exist.
        static func of(path: String) throws -> Identity? {
            var status = stat()
            guard stat(path, &status) == 0 else {
                if errno == ENOENT { return nil }
                throw POSIXFailure(errno: errno, "stat \(path)")
            }
            #if canImport(Darwin)
                let modified = status.st_mtimespec
                let changed = status.st_ctimespec
            #else
                let modified = status.st_mtim
                let changed = status.st_ctim
            #endif
            return Identity(
                device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                modified: modified, changed: changed)
        }

        /// The change time in seconds since 1970.
        var changedAt: TimeInterval { TimeInterval(changed.tv_sec) + TimeInterval(changed.tv_nsec) / 1e9 }

        static func == (lhs: Identity, rhs: Identity) -> Bool {
            lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
                && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
                && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
        }
    }

    /// The file's identity, taken before its content was read.
    let identity: Identity
    /// The users the file held (at least as new as `identity`).
    let users: [WOPIUser]

    /// A snapshot of `users`, read after `identity` was taken at `statTime`; `nil` when the file changed too
    /// recently (or does not exist) for the identity to tell later edits apart.
    init?(identity: Identity?, statTime: Date, users: [WOPIUser]) {
        guard let identity, identity.changedAt <= statTime.timeIntervalSince1970 - Self.settlingTime else {
            return nil
        }
        self.identity = identity
        self.users = users
    }
}
