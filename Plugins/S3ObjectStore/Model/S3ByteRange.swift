/// A byte range of an object to read (the `Range` header of a GET): the bytes from one offset to another, from an
/// offset to the end, or the last few.
public struct S3ByteRange: Sendable, Hashable, CustomStringConvertible {
    /// The value of the `Range` header: `bytes=0-9`, `bytes=100-`, `bytes=-20`.
    public let headerValue: String

    private init(_ headerValue: String) { self.headerValue = headerValue }

    /// Bytes `range.lowerBound` to `range.upperBound`, both included (`bytes(0...9)` is the first ten).
    ///
    /// - Throws: ``S3Error/Code/invalidArgument`` when the range starts below 0.
    public static func bytes(_ range: ClosedRange<Int64>) throws(S3Error) -> S3ByteRange {
        guard range.lowerBound >= 0 else {
            throw S3Error(.invalidArgument, "A byte range starts at 0 or later; \(range) was asked for.")
        }
        return S3ByteRange("bytes=\(range.lowerBound)-\(range.upperBound)")
    }

    /// The bytes from `offset` to the end.
    ///
    /// - Throws: ``S3Error/Code/invalidArgument`` when `offset` is negative.
    public static func from(_ offset: Int64) throws(S3Error) -> S3ByteRange {
        guard offset >= 0 else { throw S3Error(.invalidArgument, "A byte offset is 0 or more; \(offset) was given.") }
        return S3ByteRange("bytes=\(offset)-")
    }

    /// The last `count` bytes (all of them when the object is smaller).
    ///
    /// - Throws: ``S3Error/Code/invalidArgument`` when `count` is not positive.
    public static func last(_ count: Int64) throws(S3Error) -> S3ByteRange {
        guard count > 0 else {
            throw S3Error(.invalidArgument, "A suffix range has 1 byte or more; \(count) was given.")
        }
        return S3ByteRange("bytes=-\(count)")
    }

    public var description: String { headerValue }
}
