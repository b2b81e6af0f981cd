/// Where a ``WOPIHost`` gets the keys that check proof-key signatures: usually a ``DiscoveryClient``.
///
/// Open for third-party conformances (a fixed key for tests, a cluster-wide cache).
public protocol ProofKeySource: Sendable {
    /// The validator for the WOPI client's current and old keys.
    ///
    /// - Throws: when no keys are available (discovery never loaded, or it has no proof key).
    func proofKeyValidator() async throws -> ProofKeyValidator

    /// Called when a signature did not verify with the keys in hand, or verified only through the old key: the
    /// client may have rotated its keys. Returns `true` when fresh keys were loaded, so the host checks again.
    /// Implementations limit how often they refetch (a flood of bad requests must not become a flood of fetches).
    func keysMayHaveRotated() async -> Bool
}
