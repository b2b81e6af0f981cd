import Foundation
import NIOConcurrencyHelpers
import WOPIStorage

/// Modification times set through the mount (`touch -d`, `utimensat`, `cp -a`, `rsync -a`), which backends do
/// not store: the storage abstraction has no call to set a time, and WOPI has none either.
///
/// The mount reports a set time for as long as the item is unchanged: a write or truncation through the mount
/// forgets it, and so does a new version of the file from anyone else. A time set while the file is open for
/// writing here applies to the version that the close uploads (`cp -a` sets times before it closes). Times are
/// kept in memory for the life of the mount; a container keeps its time until the mount ends.
final class KeptTimes: Sendable {
    private struct Entry {
        var modified: Date
        /// The file version the time belongs to; `nil` while a write session is still to upload it.
        var version: String?
    }

    private let entries = NIOLockedValueBox<[ItemID: Entry]>([:])

    /// Keeps `modified` for `item`; `pendingUpload` when the file is open for writing here.
    func set(_ modified: Date, for item: StorageItem, pendingUpload: Bool) {
        let version: String? =
            switch item {
            case .file(let file): pendingUpload ? nil : file.version
            case .container: ""
            }
        entries.withLockedValue { $0[item.id] = Entry(modified: modified, version: version) }
    }

    /// Keeps `modified` for the container `id` (its entries changed through the mount).
    func setContainer(_ id: ItemID, modified: Date) {
        entries.withLockedValue { $0[id] = Entry(modified: modified, version: "") }
    }

    /// Forgets the time of `id`: its content changed through the mount.
    func forget(_ id: ItemID) {
        entries.withLockedValue { _ = $0.removeValue(forKey: id) }
    }

    /// The time kept for `item`, or `nil`; `pendingUpload` when the file is open for writing here.
    func time(for item: StorageItem, pendingUpload: Bool) -> Date? {
        entries.withLockedValue { entries in
            guard var entry = entries[item.id] else { return nil }
            guard case .file(let file) = item else { return entry.modified }
            if entry.version == nil {
                if pendingUpload { return entry.modified }
                entry.version = file.version
                entries[item.id] = entry
            }
            guard entry.version == file.version else {
                entries[item.id] = nil
                return nil
            }
            return entry.modified
        }
    }
}
