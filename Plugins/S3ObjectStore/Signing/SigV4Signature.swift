/// The result of signing a request: the headers to add (header signing) or the query to send (presigning), and the
/// intermediate strings, kept for tests and never logged (the canonical request holds the session token).
package struct SigV4Signature: Sendable {
    /// The headers to add to the request, lower case: `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token`
    /// (with a session token) and `authorization`. Empty for a presigned URL.
    package let headers: [(name: String, value: String)]
    /// The signature, 64 lower-case hexadecimal digits.
    package let signature: String
    /// The canonical request that was signed.
    package let canonicalRequest: String
    /// The string to sign derived from it.
    package let stringToSign: String
    /// For a presigned URL, the whole query string to send (already encoded, `X-Amz-Signature` last).
    package let query: String?

    init(
        headers: [(name: String, value: String)], signature: String, canonicalRequest: String, stringToSign: String,
        query: String? = nil
    ) {
        self.headers = headers
        self.signature = signature
        self.canonicalRequest = canonicalRequest
        self.stringToSign = stringToSign
        self.query = query
    }

    /// The value of the `authorization` header, for header signing.
    package var authorization: String? { headers.first { $0.name == "authorization" }?.value }
}
