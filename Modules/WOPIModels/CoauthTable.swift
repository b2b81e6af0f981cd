/// The body of GetCoauthTable, GetCoauthLock, RefreshCoauthLock and UnlockCoauthLock (CSPP Plus):
/// `{"CoauthTable": [...]}`.
public struct CoauthTableResponse: Codable, Sendable, Hashable {
    /// One unexpired coauth lock.
    public struct Entry: Codable, Sendable, Hashable {
        /// The client session's lock ID.
        public var coauthLockID: String
        /// The client's metadata (empty when none was sent).
        public var coauthLockMetadata: String
        /// `Coauth` or `CoauthExclusive`.
        public var coauthLockType: String
        /// The friendly name of the user whose session holds the lock.
        public var userFriendlyName: String
        /// When the lock was taken, in milliseconds since 1970 (UTC).
        public var coauthLockTime: Int64

        /// Creates an entry.
        public init(
            coauthLockID: String, coauthLockMetadata: String, coauthLockType: String, userFriendlyName: String,
            coauthLockTime: Int64
        ) {
            self.coauthLockID = coauthLockID
            self.coauthLockMetadata = coauthLockMetadata
            self.coauthLockType = coauthLockType
            self.userFriendlyName = userFriendlyName
            self.coauthLockTime = coauthLockTime
        }

        enum CodingKeys: String, CodingKey {
            case coauthLockID = "CoauthLockId"
            case coauthLockMetadata = "CoauthLockMetadata"
            case coauthLockType = "CoauthLockType"
            case userFriendlyName = "UserFriendlyName"
            case coauthLockTime = "CoauthLockTime"
        }
    }

    /// The table's rows.
    public var coauthTable: [Entry]

    /// Creates a table body.
    public init(coauthTable: [Entry]) {
        self.coauthTable = coauthTable
    }

    enum CodingKeys: String, CodingKey {
        case coauthTable = "CoauthTable"
    }
}

/// The JSON body a client may send metadata in, instead of `X-WOPI-CoauthLockMetadata`:
/// `{"CoauthLockMetadata": "..."}`.
public struct CoauthLockMetadataBody: Codable, Sendable, Hashable {
    /// The metadata.
    public var coauthLockMetadata: String?

    /// Creates a body.
    public init(coauthLockMetadata: String?) {
        self.coauthLockMetadata = coauthLockMetadata
    }

    enum CodingKeys: String, CodingKey {
        case coauthLockMetadata = "CoauthLockMetadata"
    }
}
