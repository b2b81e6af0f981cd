/// What a PUT did: stored the body, or not because its ``S3WriteCondition`` did not hold.
public enum S3PutOutcome: Sendable, Hashable {
    /// The body is stored; this is its entity tag (quoted, as S3 sends it).
    case stored(etag: String)
    /// The condition did not hold (`412`): nothing was stored.
    case preconditionFailed

    /// The entity tag when stored, else `nil`.
    public var etag: String? {
        if case .stored(let etag) = self { return etag }
        return nil
    }
}
