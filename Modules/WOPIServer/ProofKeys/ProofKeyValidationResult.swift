/// The outcome of ``ProofKeyValidator/validate(_:now:)``.
public enum ProofKeyValidationResult: Sendable, Hashable {
    /// `X-WOPI-Proof` verifies with the current discovery key.
    case valid
    /// The request is genuine, but only through a key rotation path: `X-WOPI-ProofOld` verifies with the current
    /// key, or `X-WOPI-Proof` with the old key. Accept it, and refresh discovery.
    case validWithOldKey
    /// Reject the request with `500`, and refresh discovery.
    case invalid(ProofKeyRejection)

    /// Whether the request must be accepted.
    public var isValid: Bool {
        if case .invalid = self { false } else { true }
    }

    /// Whether the host should fetch discovery again (after a failure or an old-key success, §12.4).
    public var shouldRefreshDiscovery: Bool {
        self != .valid
    }
}
