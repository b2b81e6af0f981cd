/// A multipart upload in progress: made by ``S3ObjectStore/createMultipartUpload(_:contentType:)``, given parts by
/// ``S3ObjectStore/uploadPart(_:number:body:)``, ended by ``S3ObjectStore/completeMultipartUpload(_:parts:)`` or
/// ``S3ObjectStore/abortMultipartUpload(_:)``. Until then its parts take space on the server: abort an upload that
/// will not be completed.
public struct S3MultipartUpload: Sendable, Hashable {
    /// The key the object will have.
    public var key: String
    /// The server's ID of the upload.
    public var uploadID: String

    /// An upload of `key` with the server's `uploadID`.
    public init(key: String, uploadID: String) {
        self.key = key
        self.uploadID = uploadID
    }

    /// A part that was uploaded: its number and entity tag, as CompleteMultipartUpload lists them.
    public struct Part: Sendable, Hashable {
        /// The part number, 1 to 10 000.
        public var number: Int
        /// The part's entity tag, quoted.
        public var etag: String

        /// A part.
        public init(number: Int, etag: String) {
            self.number = number
            self.etag = etag
        }
    }

    /// The smallest part but the last: 5 MiB.
    public static let minimumPartSize = 5 << 20
    /// The largest part: 5 GiB.
    public static let maximumPartSize = 5 << 30
    /// The most parts an upload has: 10 000.
    public static let maximumPartCount = 10_000
}
