import NIOConcurrencyHelpers
import WOPIStorage

/// Maps FUSE inode numbers to backend ``ItemID``s and back, stable for the life of one mount.
///
/// The root container is inode 1 (`FUSE_ROOT_ID`); every other item gets the next number the first time the
/// kernel sees it, and keeps it until the mount ends, even across renames and moves (IDs survive those). Entries
/// are never dropped, so memory grows with the number of distinct items seen (a few dozen bytes each).
final class InodeTable: Sendable {
    /// The inode number of the mount's root.
    static let rootInode: UInt64 = 1

    private struct State {
        var itemsByInode: [UInt64: ItemID] = [:]
        var inodesByItem: [ItemID: UInt64] = [:]
        var nextInode: UInt64 = 2
    }

    private let state: NIOLockedValueBox<State>

    init(root: ItemID) {
        var initial = State()
        initial.itemsByInode[Self.rootInode] = root
        initial.inodesByItem[root] = Self.rootInode
        state = NIOLockedValueBox(initial)
    }

    /// The inode of `item`, assigning a new one on first sight.
    func inode(for item: ItemID) -> UInt64 {
        state.withLockedValue { state in
            if let inode = state.inodesByItem[item] { return inode }
            let inode = state.nextInode
            state.nextInode += 1
            state.inodesByItem[item] = inode
            state.itemsByInode[inode] = item
            return inode
        }
    }

    /// The item behind `inode`, or `nil` when this mount never handed that inode out.
    func item(for inode: UInt64) -> ItemID? {
        state.withLockedValue { $0.itemsByInode[inode] }
    }

    /// The item behind `inode`.
    ///
    /// - Throws: `ESTALE` for an inode this mount does not know.
    func requireItem(for inode: UInt64) throws -> ItemID {
        guard let item = item(for: inode) else { throw FileSystemFailure.staleInode(inode) }
        return item
    }

    /// Makes `inode` name `item` from now on (after a file's content moved into another item, the kernel still
    /// knows the file by its old inode).
    func redirect(_ inode: UInt64, to item: ItemID) {
        state.withLockedValue { $0.itemsByInode[inode] = item }
    }

    /// How many inodes were handed out, the root included.
    var count: Int { state.withLockedValue { $0.itemsByInode.count } }
}
