import Foundation
import NIOConcurrencyHelpers
import WOPIStorage

/// Permission bits, owners and change times given through the mount (`open(O_CREAT, mode)`, `mkdir`, `chmod`,
/// `chown`), which no backend stores: WOPI has no modes or owners.
///
/// The mount keeps them in memory for its life, so the kernel's own permission checks (`default_permissions`)
/// decide every access from what the callers set, as on a local file system; an item nothing was set for
/// belongs to the mounting user with the mode its umask gives (0644 and 0755 for the usual umask 022). After a
/// remount every item is back to those defaults.
final class KeptAttributes: Sendable {
    /// What the mount keeps for one item.
    struct Entry: Equatable {
        /// The permission bits (`07777`), without the file type.
        var permissions: mode_t
        var owner: uid_t
        var group: gid_t
        /// The last change of these attributes (`st_ctime`), when later than the content's.
        var changed: Date?
        /// The access time set with `utimensat` (`st_atime`); the modification time when none was set.
        var accessed: Date?
    }

    /// The owner of items nothing was set for: the mounting user.
    let defaultOwner: uid_t
    let defaultGroup: gid_t
    /// The mounting process's umask, applied to the default modes.
    let umask: mode_t

    private let entries = NIOLockedValueBox<[ItemID: Entry]>([:])

    init(owner: uid_t, group: gid_t, umask: mode_t) {
        self.defaultOwner = owner
        self.defaultGroup = group
        self.umask = umask & 0o777
    }

    /// The attributes of `id`, or the defaults for a file (`isContainer == false`) or a container.
    func entry(for id: ItemID, isContainer: Bool) -> Entry {
        entries.withLockedValue { $0[id] }
            ?? Entry(
                permissions: (isContainer ? 0o777 : 0o666) & ~umask, owner: defaultOwner, group: defaultGroup,
                changed: nil)
    }

    /// Records a new item made by `owner`/`group` with `permissions` (the kernel already applied the caller's
    /// umask).
    func created(_ id: ItemID, permissions: mode_t, owner: uid_t, group: gid_t, at time: Date) {
        let entry = Entry(permissions: permissions & 0o7777, owner: owner, group: group, changed: time)
        entries.withLockedValue { $0[id] = entry }
    }

    /// Applies a `chmod`, `chown` and/or a new access time to `id` (the kernel checked that the caller may) at `time`.
    func change(
        _ id: ItemID, isContainer: Bool, permissions: mode_t?, owner: uid_t?, group: gid_t?, accessed: Date? = nil,
        at time: Date
    ) {
        var entry = entry(for: id, isContainer: isContainer)
        if let accessed { entry.accessed = accessed }
        if let permissions { entry.permissions = permissions & 0o7777 }
        if let owner { entry.owner = owner }
        if let group { entry.group = group }
        entry.changed = time
        entries.withLockedValue { $0[id] = entry }
    }

    /// Marks a change of `id` at `time` (its content, times or links changed) without other changes.
    func touch(_ id: ItemID, isContainer: Bool, at time: Date) {
        change(id, isContainer: isContainer, permissions: nil, owner: nil, group: nil, at: time)
    }

    /// Carries the attributes of `id` over to `newID` (a rename the backend did as a copy).
    func moved(_ id: ItemID, to newID: ItemID, isContainer: Bool) {
        guard newID != id else { return }
        let entry = entry(for: id, isContainer: isContainer)
        entries.withLockedValue {
            $0[id] = nil
            $0[newID] = entry
        }
    }

    /// Forgets `id` (deleted through the mount).
    func forget(_ id: ItemID) {
        entries.withLockedValue { _ = $0.removeValue(forKey: id) }
    }

    /// The process's umask, read without changing it (`/proc/self/status`); 022 where it cannot be read.
    static func currentUmask() -> mode_t {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return value
    }
}
