public import Foundation

/// What S3 tells about an object without its content (HEAD, or the headers of a GET).
public struct S3ObjectInfo: Sendable, Hashable {
    /// The object's key.
    public var key: String
    /// The whole object's size in bytes (for a ranged GET too).
    public var size: Int64
    /// The entity tag, quoted as S3 sends it (`"9b2cf535f27731c974343645a3985328"`; a multipart object's ends in
    /// `-N`). Give it as is to ``S3WriteCondition/ifMatch(_:)``.
    public var etag: String
    /// When the object was last written, when the server said.
    public var lastModified: Date?
    /// The object's `Content-Type`, when it has one.
    public var contentType: String?

    /// Creates the information of an object.
    public init(key: String, size: Int64, etag: String, lastModified: Date? = nil, contentType: String? = nil) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
    }
}
