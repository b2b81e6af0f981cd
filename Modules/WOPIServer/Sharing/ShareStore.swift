public import WOPIStorage

/// Where shares live: one record per item and grantee.
///
/// Open for third-party conformances; a store is correct when it passes `ShareStoreConformance` in the
/// `WOPIServerConformance` library. WOPIKit ships ``InMemoryShareStore``, ``FileShareStore`` and
/// `SQLiteShareStore` (SQLiteServerStores).
public protocol ShareStore: Sendable {
    /// Records `share`, replacing the grant of the same item to the same grantee.
    func grant(_ share: Share) async throws

    /// Removes the grant of `itemID` to `granteeID`; returns whether there was one.
    @discardableResult
    func revoke(itemID: ItemID, granteeID: String) async throws -> Bool

    /// Every share whose grantee is `userID` ("shared with me"), oldest first.
    func shares(withGrantee userID: String) async throws -> [Share]

    /// Every share `userID` granted ("shared by me"), oldest first.
    func shares(grantedBy userID: String) async throws -> [Share]
}
