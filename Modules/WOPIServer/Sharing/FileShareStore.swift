public import Foundation
public import NIOPosix
public import WOPIStorage

/// A ``ShareStore`` in one JSON file, safe to share between processes (the file-system deployment keeps it beside
/// its users).
///
/// Every read loads the file, so a running host sees a share that a command made a moment ago; every change is
/// made under an exclusive lock and written back atomically and durably (mode 0600). Meant for small deployments;
/// `SQLiteShareStore` keeps shares in the database instead.
public struct FileShareStore: ShareStore {
    private let file: SharedJSONFile<[Share]>

    /// Creates a store backed by the JSON file at `url` (created on the first share).
    ///
    /// - Parameter threadPool: the pool that runs the blocking file I/O.
    public init(url: URL, threadPool: NIOThreadPool = .singleton) {
        file = SharedJSONFile(url: url, threadPool: threadPool, initial: { [] })
    }

    public func grant(_ share: Share) async throws {
        try await file.update { shares in
            shares.removeAll { $0.itemID == share.itemID && $0.granteeID == share.granteeID }
            shares.append(share)
        }
    }

    @discardableResult
    public func revoke(itemID: ItemID, granteeID: String) async throws -> Bool {
        try await file.update { shares in
            let before = shares.count
            shares.removeAll { $0.itemID == itemID && $0.granteeID == granteeID }
            return shares.count != before
        }
    }

    public func shares(withGrantee userID: String) async throws -> [Share] {
        try await file.read().filter { $0.granteeID == userID }
    }

    public func shares(grantedBy userID: String) async throws -> [Share] {
        try await file.read().filter { $0.grantedBy == userID }
    }
}
