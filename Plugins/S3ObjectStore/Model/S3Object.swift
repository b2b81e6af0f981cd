/// An object as a GET returns it: what S3 says about it and its content, streamed.
public struct S3Object: Sendable {
    /// The object's key, whole size, entity tag, date and type.
    public let info: S3ObjectInfo
    /// For a ranged GET, the first and last byte of the object this body holds (`Content-Range`); `nil` for the
    /// whole object.
    public let range: ClosedRange<Int64>?
    /// The content.
    public let body: S3ObjectBody
}
