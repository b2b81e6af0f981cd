/// What creating a bucket did.
public enum S3BucketCreation: Sendable, Hashable {
    /// The bucket was made.
    case created
    /// The bucket existed already and is this account's (`BucketAlreadyOwnedByYou`); nothing changed.
    case alreadyOwned
}
