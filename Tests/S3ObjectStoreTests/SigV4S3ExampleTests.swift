import Foundation
import NIOCore
import S3ObjectStore
import Testing

/// The S3 examples of AWS's "Signature Calculations for the Authorization Header: Transferring Payload in a Single
/// Chunk" (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html) and "Authenticating
/// Requests: Using Query Parameters" (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html):
/// access key AKIAIOSFODNN7EXAMPLE, bucket examplebucket in us-east-1, 2013-05-24T00:00:00Z, virtual-host addressing.
@Suite("SigV4 signer: AWS's S3 examples")
struct SigV4S3ExampleTests {
    static let credentials = S3Credentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    /// 2013-05-24T00:00:00Z.
    static let date = Date(timeIntervalSince1970: 1_369_353_600)
    static let host = "examplebucket.s3.amazonaws.com"
    static let signer = SigV4Signer(credentials: credentials, region: "us-east-1")

    static func authorization(_ signedHeaders: String, _ signature: String) -> String {
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=\(signedHeaders), Signature=\(signature)"
    }

    static func stringToSign(_ hash: String) -> String {
        "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n\(hash)"
    }

    @Test("GET Object with a Range")
    func getObject() {
        let signed = Self.signer.sign(
            SigV4Request(method: "GET", host: Self.host, path: "/test.txt", headers: [("Range", "bytes=0-9")]),
            at: Self.date)
        #expect(
            signed.canonicalRequest
                == """
                GET
                /test.txt

                host:examplebucket.s3.amazonaws.com
                range:bytes=0-9
                x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                x-amz-date:20130524T000000Z

                host;range;x-amz-content-sha256;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(
            signed.stringToSign == Self.stringToSign("7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972")
        )
        #expect(
            signed.authorization
                == Self.authorization(
                    "host;range;x-amz-content-sha256;x-amz-date",
                    "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"))
        #expect(
            signed.headers.first { $0.name == "x-amz-content-sha256" }?.value
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("PUT Object: the key's `$` encoded once, the body's SHA-256 signed")
    func putObject() {
        let body = ByteBuffer(string: "Welcome to Amazon S3.")
        let payload = SigV4PayloadHash.sha256(of: body)
        #expect(payload.value == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let signed = Self.signer.sign(
            SigV4Request(
                method: "PUT", host: Self.host, path: "/test$file.text",
                headers: [("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY")],
                payload: payload), at: Self.date)
        #expect(
            signed.canonicalRequest
                == """
                PUT
                /test%24file.text

                date:Fri, 24 May 2013 00:00:00 GMT
                host:examplebucket.s3.amazonaws.com
                x-amz-content-sha256:44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072
                x-amz-date:20130524T000000Z
                x-amz-storage-class:REDUCED_REDUNDANCY

                date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class
                44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072
                """)
        #expect(
            signed.stringToSign == Self.stringToSign("9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d")
        )
        #expect(
            signed.authorization
                == Self.authorization(
                    "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
                    "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"))
    }

    @Test("GET Bucket Lifecycle: a parameter without a value is signed as `lifecycle=`")
    func getBucketLifecycle() {
        let signed = Self.signer.sign(
            SigV4Request(method: "GET", host: Self.host, path: "/", query: [("lifecycle", "")]), at: Self.date)
        #expect(
            signed.canonicalRequest
                == """
                GET
                /
                lifecycle=
                host:examplebucket.s3.amazonaws.com
                x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                x-amz-date:20130524T000000Z

                host;x-amz-content-sha256;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(
            signed.stringToSign == Self.stringToSign("9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca")
        )
        #expect(signed.signature == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
    }

    @Test("GET Bucket (List Objects): the query sorted")
    func listObjects() {
        let signed = Self.signer.sign(
            SigV4Request(method: "GET", host: Self.host, path: "/", query: [("prefix", "J"), ("max-keys", "2")]),
            at: Self.date)
        #expect(
            signed.canonicalRequest
                == """
                GET
                /
                max-keys=2&prefix=J
                host:examplebucket.s3.amazonaws.com
                x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                x-amz-date:20130524T000000Z

                host;x-amz-content-sha256;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(
            signed.stringToSign == Self.stringToSign("df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7")
        )
        #expect(signed.signature == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test("a presigned GET valid for a day")
    func presignedURL() throws {
        let signed = try Self.signer.presign(
            SigV4Request(method: "GET", host: Self.host, path: "/test.txt", payload: .unsigned), at: Self.date,
            expires: 86400)
        #expect(
            signed.canonicalRequest
                == """
                GET
                /test.txt
                X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2F\
                aws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host
                host:examplebucket.s3.amazonaws.com

                host
                UNSIGNED-PAYLOAD
                """)
        #expect(
            signed.stringToSign == Self.stringToSign("3bfa292879f6447bbcda7001decf97f4a54dc650c8942174ae0a9121cf58ad04")
        )
        #expect(signed.signature == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test("the store's presigned URL is AWS's example URL")
    func storePresignedURL() async throws {
        let configuration = try S3ObjectStore.Configuration(
            endpoint: URL(string: "https://s3.amazonaws.com")!, region: "us-east-1", bucket: "examplebucket",
            addressing: .virtualHost, credentials: Self.credentials, now: { Self.date })
        let store = S3ObjectStore(configuration: configuration)
        let url = try store.presignedURL(for: "test.txt", expires: .seconds(86400))
        #expect(
            url.absoluteString
                == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="
                + "AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&"
                + "X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature="
                + "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        #expect(throws: S3Error.self) { try store.presignedURL(for: "test.txt", expires: .seconds(604_801)) }
        #expect(throws: S3Error.self) { try store.presignedURL(for: "test.txt", expires: .zero) }
        try await store.shutdown()
    }

    @Test("another secret or another header value gives another signature")
    func signaturesDependOnTheSecretAndHeaders() {
        let request = SigV4Request(method: "GET", host: Self.host, path: "/test.txt", headers: [("Range", "bytes=0-9")])
        let expected = "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        var otherCredentials = Self.credentials
        otherCredentials.secretAccessKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEZ"
        #expect(
            SigV4Signer(credentials: otherCredentials, region: "us-east-1").sign(request, at: Self.date).signature
                != expected)
        var otherRange = request
        otherRange.headers = [("Range", "bytes=0-10")]
        #expect(Self.signer.sign(otherRange, at: Self.date).signature != expected)
        #expect(
            SigV4Signer(credentials: Self.credentials, region: "us-west-2").sign(request, at: Self.date).signature
                != expected)
        #expect(Self.signer.sign(request, at: Self.date).signature == expected)
    }

    @Test("the signing key is derived once a day and region")
    func signingKeysAreCached() {
        let cache = SigV4SigningKeyCache(secretAccessKey: "secret")
        let first = cache.key(date: "20130524", region: "us-east-1", service: "s3")
        #expect(cache.key(date: "20130524", region: "us-east-1", service: "s3") == first)
        #expect(cache.count == 1)
        #expect(cache.key(date: "20130525", region: "us-east-1", service: "s3") != first)
        #expect(cache.key(date: "20130524", region: "eu-west-1", service: "s3") != first)
        #expect(cache.count == 3)
    }

    @Test("URI encoding: unreserved characters kept, UTF-8 bytes as upper-case %XX, `/` only in paths")
    func uriEncoding() {
        #expect(SigV4URIEncoding.path("/a b/c+d/ключ~._-") == "/a%20b/c%2Bd/%D0%BA%D0%BB%D1%8E%D1%87~._-")
        #expect(SigV4URIEncoding.query("a/b=c&d") == "a%2Fb%3Dc%26d")
        #expect(SigV4URIEncoding.path("/test$file.text") == "/test%24file.text")
        #expect(SigV4URIEncoding.path("//a//b/") == "//a//b/", "S3 paths are not normalised")
        #expect(SigV4URIEncoding.path("/%41") == "/%2541", "what is given decoded is encoded once, as given")
    }

    @Test(
        "timestamps in UTC, the ISO 8601 basic form",
        arguments: [
            (0.0, "19700101T000000Z"), (1_369_353_600, "20130524T000000Z"), (1_440_938_160, "20150830T123600Z"),
            (951_782_400, "20000229T000000Z"), (4_102_444_799.9, "20991231T235959Z"), (-1, "19691231T235959Z"),
        ])
    func timestamps(_ seconds: Double, _ expected: String) {
        let timestamp = SigV4Timestamp(Date(timeIntervalSince1970: seconds))
        #expect(timestamp.basic == expected)
        #expect(timestamp.date == expected.prefix(8))
    }
}
