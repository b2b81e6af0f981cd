import Foundation
import S3ObjectStore
import Testing

@Suite("SigV4 signer: AWS's Signature Version 4 test suite")
struct SigV4TestSuiteTests {
    static let credentials = S3Credentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    /// 2015-08-30T12:36:00Z.
    static let date = Date(timeIntervalSince1970: 1_440_938_160)

    static func signer(_ vector: SigV4Vector) -> SigV4Signer {
        var credentials = credentials
        credentials.sessionToken = vector.sessionToken
        return SigV4Signer(
            credentials: credentials, region: "us-east-1", service: "service", sendsContentSHA256: vector.signsBody)
    }

    static func request(_ vector: SigV4Vector) -> SigV4Request {
        SigV4Request(
            method: vector.method, host: vector.host, path: vector.path,
            query: vector.query.map { (name: $0.0, value: $0.1) },
            headers: vector.headers.map { (name: $0.0, value: $0.1) },
            payload: vector.body.map { SigV4PayloadHash.sha256(of: Array($0.utf8)) } ?? .empty)
    }

    @Test("the Authorization header", arguments: SigV4Vector.all)
    func headerSigning(_ vector: SigV4Vector) {
        let signed = Self.signer(vector).sign(Self.request(vector), at: Self.date)
        #expect(signed.canonicalRequest == vector.canonicalRequest)
        #expect(signed.stringToSign == vector.stringToSign)
        #expect(signed.signature == vector.signature)
        let signedHeaders = vector.canonicalRequest.split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().last.map(String.init)
        #expect(
            signed.authorization
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=\(signedHeaders ?? ""), Signature=\(vector.signature)")
        #expect(signed.headers.first { $0.name == "x-amz-date" }?.value == "20150830T123600Z")
        #expect(signed.headers.contains { $0.name == "x-amz-security-token" } == (vector.sessionToken != nil))
    }

    @Test("the presigned query string", arguments: SigV4Vector.all)
    func querySigning(_ vector: SigV4Vector) throws {
        let signed = try Self.signer(vector).presign(Self.request(vector), at: Self.date, expires: 3600)
        #expect(signed.canonicalRequest == vector.presignedCanonicalRequest)
        #expect(signed.signature == vector.presignedSignature)
        let canonicalQuery = vector.presignedCanonicalRequest.split(separator: "\n", omittingEmptySubsequences: false)[
            2]
        #expect(signed.query == "\(canonicalQuery)&X-Amz-Signature=\(vector.presignedSignature)")
    }

    /// Each vector can fail: another secret, another header value or another path gives another signature.
    @Test("a changed secret, header or path changes the signature", arguments: SigV4Vector.all)
    func signaturesDependOnEveryInput(_ vector: SigV4Vector) {
        let request = Self.request(vector)
        var otherSecret = Self.credentials
        otherSecret.secretAccessKey += "x"
        let withOtherSecret = SigV4Signer(credentials: otherSecret, region: "us-east-1", service: "service")
            .sign(request, at: Self.date)
        #expect(withOtherSecret.signature != vector.signature)
        var otherHeader = request
        otherHeader.headers.append((name: "My-Header9", value: "x"))
        #expect(Self.signer(vector).sign(otherHeader, at: Self.date).signature != vector.signature)
        var otherPath = request
        otherPath.path += "x"
        #expect(Self.signer(vector).sign(otherPath, at: Self.date).signature != vector.signature)
        #expect(
            Self.signer(vector).sign(request, at: Self.date.addingTimeInterval(1)).signature != vector.signature,
            "the date is signed")
    }
}
