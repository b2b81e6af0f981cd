package import WOPIStorage

/// A storage whose `move` and `rename` are one operation, ``relocate(_:into:newName:replacing:)``: a rename is a move
/// within the item's own container, decided in the same transaction as the move itself (so a rename never undoes a
/// move another host made meanwhile). `SQLiteStorage` and `PostgresStorage` get their `StorageBackend` `move` and
/// `rename` from here.
package protocol RelocatingStorage: StorageBackend {
    /// Moves `id` into `destination`, or, when that is `nil`, renames it in its own container, in one transaction.
    func relocate(_ id: ItemID, into destination: ItemID?, newName: String?, replacing: Bool) async throws
        -> StorageItem
}

extension RelocatingStorage {
    public func rename(_ id: ItemID, to newName: String) async throws -> StorageItem {
        try await relocate(id, into: nil, newName: newName, replacing: false)
    }

    public func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) async throws
        -> StorageItem
    {
        try await relocate(id, into: newParent, newName: newName, replacing: replacing)
    }
}
