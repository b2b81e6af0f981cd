import Synchronization
public import WOPIStorage

/// A ``ShareStore`` in this process's memory, for tests and single-process hosts that keep no shares.
public final class InMemoryShareStore: ShareStore {
    private let shares = Mutex<[Share]>([])

    /// Creates an empty store.
    public init() {}

    public func grant(_ share: Share) async throws {
        shares.withLock { shares in
            shares.removeAll { $0.itemID == share.itemID && $0.granteeID == share.granteeID }
            shares.append(share)
        }
    }

    @discardableResult
    public func revoke(itemID: ItemID, granteeID: String) async throws -> Bool {
        shares.withLock { shares in
            let before = shares.count
            shares.removeAll { $0.itemID == itemID && $0.granteeID == granteeID }
            return shares.count != before
        }
    }

    public func shares(withGrantee userID: String) async throws -> [Share] {
        shares.withLock { $0.filter { $0.granteeID == userID } }
    }

    public func shares(grantedBy userID: String) async throws -> [Share] {
        shares.withLock { $0.filter { $0.grantedBy == userID } }
    }
}
