/// The XML error document S3 answers a failed request with:
/// `<Error><Code>NoSuchBucket</Code><Message>…</Message><RequestId>…</RequestId></Error>`.
struct S3ErrorBody: Sendable, Equatable {
    /// S3's error code (`NoSuchKey`, `SignatureDoesNotMatch`, `SlowDown`).
    var code: String?
    /// S3's message.
    var message: String?
    /// The request's ID.
    var requestID: String?
    /// The region the bucket is in, when the error names it (`AuthorizationHeaderMalformed`).
    var region: String?

    /// An error document from its parts.
    init(code: String?, message: String?, requestID: String?, region: String?) {
        self.code = code
        self.message = message
        self.requestID = requestID
        self.region = region
    }

    /// The error document already parsed as `root`.
    init(_ root: S3XMLElement) {
        self.init(
            code: root.text(of: "Code"), message: root.text(of: "Message"), requestID: root.text(of: "RequestId"),
            region: root.text(of: "Region"))
    }

    /// Reads an error document; `nil` when `bytes` are empty or not S3's XML (a proxy's HTML page).
    init?(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, let root = try? S3XMLElement.parse(bytes), root.name == "Error" else { return nil }
        self.init(root)
    }
}
