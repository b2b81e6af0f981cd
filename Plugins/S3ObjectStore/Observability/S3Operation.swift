/// The S3 API operations the store sends, by their AWS names: the bounded `operation` label of its metrics and the
/// name of its spans (`S3.GetObject`).
package enum S3Operation: String, Sendable, Hashable, CaseIterable {
    case putObject = "PutObject"
    case getObject = "GetObject"
    case headObject = "HeadObject"
    case deleteObject = "DeleteObject"
    case deleteObjects = "DeleteObjects"
    case listObjectsV2 = "ListObjectsV2"
    case createBucket = "CreateBucket"
    case headBucket = "HeadBucket"
    case createMultipartUpload = "CreateMultipartUpload"
    case uploadPart = "UploadPart"
    case completeMultipartUpload = "CompleteMultipartUpload"
    case abortMultipartUpload = "AbortMultipartUpload"
}
