import Synchronization
import WOPIStorage

/// The in-memory cache from item ID to path (components under the storage root).
///
/// Only a hint: every hit is verified against the ID stored on the file at that path, and a miss or a stale
/// entry makes the tree rescan, so renames done by other processes or by hand are found.
final class ItemIndex: Sendable {
    private let paths = Mutex<[ItemID: [String]]>([:])

    subscript(id: ItemID) -> [String]? {
        paths.withLock { $0[id] }
    }

    func record(_ id: ItemID, at path: [String]) {
        paths.withLock { $0[id] = path }
    }

    func forget(_ id: ItemID) {
        paths.withLock { $0[id] = nil }
    }

    /// Replaces the whole index with the outcome of a scan.
    func replaceAll(with scanned: [ItemID: [String]]) {
        paths.withLock { $0 = scanned }
    }

    /// Moves every cached path under `old` (inclusive) to the same place under `new`.
    func move(from old: [String], to new: [String]) {
        paths.withLock { paths in
            for (id, path) in paths where path.starts(with: old) {
                paths[id] = new + path.dropFirst(old.count)
            }
        }
    }
}
