public import Foundation

/// One page of a listing (ListObjectsV2): up to `maxKeys` objects in key order, the common prefixes when a delimiter
/// was given, and the token of the next page.
public struct S3ListPage: Sendable, Hashable {
    /// An object of a listing.
    public struct Object: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The size in bytes.
        public var size: Int64
        /// The entity tag, quoted as S3 sends it.
        public var etag: String
        /// When the object was last written.
        public var lastModified: Date?

        /// An object of a listing.
        public init(key: String, size: Int64, etag: String, lastModified: Date? = nil) {
            self.key = key
            self.size = size
            self.etag = etag
            self.lastModified = lastModified
        }
    }

    /// The objects, in key order (UTF-8 byte order).
    public var objects: [Object]
    /// With a delimiter, the key prefixes up to and including it ("folders"), in order.
    public var commonPrefixes: [String]
    /// The token to ask for the next page with, `nil` on the last page.
    public var nextContinuationToken: String?

    /// A page of a listing.
    public init(objects: [Object], commonPrefixes: [String] = [], nextContinuationToken: String? = nil) {
        self.objects = objects
        self.commonPrefixes = commonPrefixes
        self.nextContinuationToken = nextContinuationToken
    }
}
