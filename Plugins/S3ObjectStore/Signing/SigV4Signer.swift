import Crypto
package import Foundation

/// Signs requests with AWS Signature Version 4 (`AWS4-HMAC-SHA256`), in the `Authorization` header or in the query
/// string of a presigned URL, with the rules S3 uses: each path segment encoded once and never normalised, query
/// parameters and headers canonicalised and sorted, `x-amz-content-sha256` signed.
///
/// ```swift
/// let signer = SigV4Signer(credentials: credentials, region: "us-east-1")
/// let signed = signer.sign(SigV4Request(method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/a.txt"),
///                          at: Date())
/// for (name, value) in signed.headers { request.headers.add(name: name, value: value) }
/// ```
///
/// The signing key is derived once per day, region and service and cached.
package struct SigV4Signer: Sendable {
    /// The credentials requests are signed with.
    package let credentials: S3Credentials
    /// The region of the credential scope (`us-east-1`; Ceph takes any).
    package let region: String
    /// The service of the credential scope, `s3`.
    package let service: String
    /// Whether signed requests carry (and sign) `x-amz-content-sha256`: S3 requires it; the generic services of
    /// AWS's SigV4 test suite do not send it.
    package let sendsContentSHA256: Bool
    private let keys: SigV4SigningKeyCache

    /// The longest a presigned URL may stay valid: 7 days.
    package static let maximumExpiry: Int = 604_800

    /// A signer for `service` in `region`; `sendsContentSHA256` defaults to true for `s3`.
    package init(credentials: S3Credentials, region: String, service: String = "s3", sendsContentSHA256: Bool? = nil) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.sendsContentSHA256 = sendsContentSHA256 ?? (service == "s3")
        self.keys = SigV4SigningKeyCache(secretAccessKey: credentials.secretAccessKey)
    }

    /// Signs `request` at `date` and returns the headers to add to it (`x-amz-date`, `x-amz-content-sha256`,
    /// `x-amz-security-token` and `authorization`).
    package func sign(_ request: SigV4Request, at date: Date) -> SigV4Signature {
        let timestamp = SigV4Timestamp(date)
        var added: [(name: String, value: String)] = [("x-amz-date", timestamp.basic)]
        if sendsContentSHA256 { added.append(("x-amz-content-sha256", request.payload.value)) }
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        let headers = SigV4Canonical.headers([("host", request.host)] + request.otherHeaders + added)
        let canonicalRequest = SigV4Canonical.request(
            method: request.method, path: request.encodedPath, query: SigV4Canonical.query(request.query),
            headers: headers, payload: request.payload)
        let (stringToSign, signature) = sign(canonicalRequest: canonicalRequest, timestamp: timestamp)
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(timestamp)), "
            + "SignedHeaders=\(headers.signedNames), Signature=\(signature)"
        return SigV4Signature(
            headers: added + [("authorization", authorization)], signature: signature,
            canonicalRequest: canonicalRequest, stringToSign: stringToSign)
    }

    /// Signs `request` in its query string (a presigned URL valid for `expires` seconds from `date`) and returns the
    /// whole query to send: the request's own parameters, the `X-Amz-*` ones and `X-Amz-Signature` last.
    ///
    /// Only `host` and the request's `headers` are signed; a browser following the URL must send those headers too.
    /// S3 presigned URLs sign `UNSIGNED-PAYLOAD` as the payload.
    ///
    /// - Throws: ``S3Error/Code/invalidArgument`` when `expires` is not within 1 second to 7 days.
    package func presign(_ request: SigV4Request, at date: Date, expires: Int) throws -> SigV4Signature {
        guard (1...Self.maximumExpiry).contains(expires) else {
            throw S3Error(
                .invalidArgument,
                "A presigned URL lasts 1 to \(Self.maximumExpiry) seconds (7 days); \(expires) was asked for.")
        }
        let timestamp = SigV4Timestamp(date)
        let headers = SigV4Canonical.headers([("host", request.host)] + request.otherHeaders)
        var query = request.query
        query.append(("X-Amz-Algorithm", "AWS4-HMAC-SHA256"))
        query.append(("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(timestamp))"))
        query.append(("X-Amz-Date", timestamp.basic))
        query.append(("X-Amz-Expires", String(expires)))
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        query.append(("X-Amz-SignedHeaders", headers.signedNames))
        let canonicalQuery = SigV4Canonical.query(query)
        let canonicalRequest = SigV4Canonical.request(
            method: request.method, path: request.encodedPath, query: canonicalQuery, headers: headers,
            payload: request.payload)
        let (stringToSign, signature) = sign(canonicalRequest: canonicalRequest, timestamp: timestamp)
        return SigV4Signature(
            headers: [], signature: signature, canonicalRequest: canonicalRequest, stringToSign: stringToSign,
            query: canonicalQuery + "&X-Amz-Signature=" + signature)
    }

    private func scope(_ timestamp: SigV4Timestamp) -> String {
        "\(timestamp.date)/\(region)/\(service)/aws4_request"
    }

    private func sign(canonicalRequest: String, timestamp: SigV4Timestamp) -> (String, String) {
        let stringToSign = [
            "AWS4-HMAC-SHA256", timestamp.basic, scope(timestamp),
            Hex.encode(SHA256.hash(data: Array(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        let key = keys.key(date: timestamp.date, region: region, service: service)
        let signature = Hex.encode(HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: key))
        return (stringToSign, signature)
    }
}
