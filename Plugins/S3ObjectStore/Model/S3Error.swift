/// An error from ``S3ObjectStore``: the server's answer (with S3's own `Code`, `Message` and `RequestId` when it
/// sent an XML error body), a connection that failed after the retries, or bad input caught before sending.
///
/// Match on ``code``; the cases are open for additions, so always keep a `default` branch. The ``message`` says
/// what went wrong and what to do, in words fit for a log or an operator; it never holds a credential.
public struct S3Error: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidCredentials, accessDenied, clockSkewed, noSuchBucket, noSuchKey, noSuchUpload
            case preconditionFailed, conflict, bucketAlreadyExists, invalidRange, wrongRegion, slowDown
            case serverError, connectionFailed, timeout, rejected, invalidResponse, invalidConfiguration
            case invalidArgument
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The access key is unknown or the signature does not match (`InvalidAccessKeyId`,
        /// `SignatureDoesNotMatch`, an expired session token): check `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`
        /// and `AWS_SESSION_TOKEN`.
        public static let invalidCredentials = Code(.invalidCredentials)
        /// The credentials are valid but may not do this (`AccessDenied`): grant them the permission.
        public static let accessDenied = Code(.accessDenied)
        /// This machine's clock is more than 15 minutes off the server's (`RequestTimeTooSkewed`): sync it (NTP).
        public static let clockSkewed = Code(.clockSkewed)
        /// The bucket does not exist (`NoSuchBucket`): create it, or fix the bucket name.
        public static let noSuchBucket = Code(.noSuchBucket)
        /// The object does not exist (`NoSuchKey`), where a missing object is an error (a part copy, a ranged read
        /// of an object deleted meanwhile). Reads answer a missing object with `nil` instead.
        public static let noSuchKey = Code(.noSuchKey)
        /// The multipart upload does not exist any more (`NoSuchUpload`): it was completed or aborted.
        public static let noSuchUpload = Code(.noSuchUpload)
        /// A condition (`If-Match`, `If-None-Match`) did not hold (`412`), where that is an error rather than an
        /// outcome.
        public static let preconditionFailed = Code(.preconditionFailed)
        /// Another request changed the same object or bucket at the same time (`409`: `OperationAborted`,
        /// `ConditionalRequestConflict`): retry.
        public static let conflict = Code(.conflict)
        /// The bucket name is taken by another account (`BucketAlreadyExists`): choose another name.
        public static let bucketAlreadyExists = Code(.bucketAlreadyExists)
        /// The byte range starts past the end of the object (`416`, `InvalidRange`).
        public static let invalidRange = Code(.invalidRange)
        /// The bucket is in another region than the one configured (`301`, `PermanentRedirect`,
        /// `AuthorizationHeaderMalformed`): set the region the message names.
        public static let wrongRegion = Code(.wrongRegion)
        /// The server asked to slow down (`503 SlowDown`) and kept asking after the retries: send fewer requests.
        public static let slowDown = Code(.slowDown)
        /// The server failed (`5xx`) on every attempt.
        public static let serverError = Code(.serverError)
        /// The server could not be reached or the connection broke, on every attempt: check the endpoint and that
        /// the server runs.
        public static let connectionFailed = Code(.connectionFailed)
        /// The request did not complete within its timeout.
        public static let timeout = Code(.timeout)
        /// The server refused the request for another reason (a `4xx` with the S3 code in ``S3Error/s3Code``).
        public static let rejected = Code(.rejected)
        /// The server's answer could not be read (malformed XML, a missing header).
        public static let invalidResponse = Code(.invalidResponse)
        /// The configuration is incomplete or malformed (the endpoint, the bucket name, the credentials); nothing
        /// was sent.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// An argument is out of range (an empty key, a part number over 10 000, an inverted byte range); nothing
        /// was sent.
        public static let invalidArgument = Code(.invalidArgument)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String
    /// The HTTP status of the server's answer, when there was one.
    public let status: Int?
    /// S3's own error code (`NoSuchBucket`, `SignatureDoesNotMatch`, ...), when the server sent one.
    public let s3Code: String?
    /// The server's request ID (`x-amz-request-id` or `RequestId`), to quote to the server's operator.
    public let requestID: String?
    /// The lower-level error behind this one (a connection error), if any.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, status: Int? = nil, s3Code: String? = nil, requestID: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.s3Code = s3Code
        self.requestID = requestID
        self.underlying = underlying
    }

    public var description: String {
        var text = "S3Error.\(code): \(message)"
        if let status { text += " (HTTP \(status)" + (s3Code.map { ", \($0)" } ?? "") + ")" }
        if let requestID { text += " [request \(requestID)]" }
        if let underlying { text += " (underlying: \(underlying))" }
        return text
    }
}
