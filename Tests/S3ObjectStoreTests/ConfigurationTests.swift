import Foundation
import S3ObjectStore
import Testing

@Suite("S3ObjectStore.Configuration: the URL form, the credentials, and no secret shown")
struct ConfigurationTests {
    static let environment = [
        "AWS_ACCESS_KEY_ID": "AKIAENVIRONMENT00001", "AWS_SECRET_ACCESS_KEY": "environment-secret-value",
    ]

    @Test("s3://BUCKET?endpoint=…&region=…&addressing=path")
    func parsesTheURLForm() throws {
        let configuration = try S3ObjectStore.Configuration(
            url: "s3://documents?endpoint=http://127.0.0.1:7480&region=default&addressing=path",
            environment: Self.environment)
        #expect(configuration.bucket == "documents")
        #expect(configuration.endpoint.absoluteString == "http://127.0.0.1:7480")
        #expect(configuration.region == "default")
        #expect(configuration.addressing == .path)
        #expect(configuration.credentials.accessKeyID == "AKIAENVIRONMENT00001")
        #expect(configuration.credentials.sessionToken == nil)
    }

    @Test("without an endpoint: AWS in the region, virtual-host addressing")
    func defaultsToAWS() async throws {
        let configuration = try S3ObjectStore.Configuration(
            url: "s3://my-bucket?region=eu-west-3", environment: Self.environment)
        #expect(configuration.endpoint.absoluteString == "https://s3.eu-west-3.amazonaws.com")
        #expect(configuration.addressing == .virtualHost)
        let store = S3ObjectStore(configuration: configuration)
        let url = try store.presignedURL(for: "a b/c.txt")
        #expect(url.absoluteString.hasPrefix("https://my-bucket.s3.eu-west-3.amazonaws.com/a%20b/c.txt?X-Amz-"))
        #expect(url.absoluteString.contains("%2Feu-west-3%2Fs3%2Faws4_request"))
        try await store.shutdown()
    }

    @Test("path addressing keeps the port unless it is the scheme's default")
    func pathAddressing() async throws {
        for (endpoint, prefix) in [
            ("http://127.0.0.1:7480", "http://127.0.0.1:7480/b/k?"),
            ("https://s3.example.com:443", "https://s3.example.com/b/k?"),
            ("http://s3.example.com:80", "http://s3.example.com/b/k?"),
        ] {
            let configuration = try S3ObjectStore.Configuration(
                url: "s3://b?endpoint=\(endpoint)&addressing=path", environment: Self.environment)
            let store = S3ObjectStore(configuration: configuration)
            #expect(try store.presignedURL(for: "k").absoluteString.hasPrefix(prefix))
            try await store.shutdown()
        }
    }

    @Test(
        "malformed URLs are refused, each saying what is wrong",
        arguments: [
            ("http://bucket", "not an S3 URL"), ("s3://?endpoint=http://h", "names no bucket"),
            ("s3://b/key", "more than a bucket"), ("s3://b?endpoint=ftp://h", "not an http or https URL"),
            ("s3://b?endpoint=http://h&addressing=sideways", "neither path nor virtual"),
            ("s3://b?endpont=http://h", "unknown parameter \"endpont\""), ("s3://b?region=a&region=b", "twice"),
            ("s3://b?endpoint=http://user:pw@h", "never in the endpoint"), ("s3://b?endpoint=http://h/path", "a path"),
            ("s3://b?region=", "is empty"), ("s3://Bad_Bucket?addressing=virtual", "cannot be a host name"),
            ("s3://b?region=us%20east", "not a region name"),
        ])
    func refusesMalformedURLs(_ url: String, _ reason: String) {
        let error = #expect(throws: S3Error.self) {
            _ = try S3ObjectStore.Configuration(url: url, environment: Self.environment)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test("missing credentials name the variable to set, never a secret")
    func missingCredentials() {
        let none = #expect(throws: S3Error.self) {
            _ = try S3ObjectStore.Configuration(url: "s3://b", environment: [:])
        }
        #expect(none?.message.contains("AWS_ACCESS_KEY_ID") == true)
        let noSecret = #expect(throws: S3Error.self) {
            _ = try S3Credentials.fromEnvironment(["AWS_ACCESS_KEY_ID": "AKIAONLYTHEKEY000001"])
        }
        #expect(noSecret?.message.contains("AWS_SECRET_ACCESS_KEY") == true)
        #expect(noSecret?.message.contains("AKIAONLYTHEKEY") == false)
        let token = try? S3Credentials.fromEnvironment(Self.environment.merging(["AWS_SESSION_TOKEN": ""]) { $1 })
        #expect(token?.sessionToken == nil)
    }

    @Test("credentials from an env file and from a shared credentials file's profile")
    func credentialsFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("s3-credentials-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let env = folder.appendingPathComponent("s3.env")
        try """
        # written by scripts/ceph-cluster.sh
        S3_ENDPOINT=http://127.0.0.1:7480
        export AWS_ACCESS_KEY_ID=AKIAFROMFILE00000001
        AWS_SECRET_ACCESS_KEY="file secret"
        AWS_SESSION_TOKEN='file-token'
        """.write(to: env, atomically: true, encoding: .utf8)
        let fromEnv = try S3Credentials.fromFile(env)
        #expect(
            fromEnv
                == S3Credentials(
                    accessKeyID: "AKIAFROMFILE00000001", secretAccessKey: "file secret", sessionToken: "file-token"))
        let shared = folder.appendingPathComponent("credentials")
        try """
        [default]
        aws_access_key_id = AKIADEFAULT000000001
        aws_secret_access_key = default-secret

        [ceph]
        aws_access_key_id=AKIACEPH000000000001
        aws_secret_access_key=ceph-secret
        """.write(to: shared, atomically: true, encoding: .utf8)
        #expect(try S3Credentials.fromFile(shared).accessKeyID == "AKIADEFAULT000000001")
        #expect(try S3Credentials.fromFile(shared, profile: "ceph").secretAccessKey == "ceph-secret")
        let missingProfile = #expect(throws: S3Error.self) { _ = try S3Credentials.fromFile(shared, profile: "prod") }
        #expect(missingProfile?.message.contains("profile [prod]") == true)
        let configuration = try S3ObjectStore.Configuration(
            url: "s3://b?endpoint=http://127.0.0.1:1&credentials-file=\(shared.path)&profile=ceph", environment: [:])
        #expect(configuration.credentials.accessKeyID == "AKIACEPH000000000001")
        let unreadable = #expect(throws: S3Error.self) {
            _ = try S3Credentials.fromFile(folder.appendingPathComponent("none"))
        }
        #expect(unreadable?.code == .invalidConfiguration)
    }

    @Test("descriptions, debug descriptions and dumps never show the secret or the token")
    func redaction() throws {
        let credentials = S3Credentials(
            accessKeyID: "AKIAREDACTED00000001", secretAccessKey: "very-secret-value",
            sessionToken: "session-token-value")
        let configuration = try S3ObjectStore.Configuration(
            endpoint: URL(string: "http://127.0.0.1:7480")!, bucket: "b", credentials: credentials)
        var dumped = ""
        dump(credentials, to: &dumped)
        var dumpedConfiguration = ""
        dump(configuration, to: &dumpedConfiguration)
        for text in [
            "\(credentials)", String(reflecting: credentials), dumped, "\(configuration)",
            String(reflecting: configuration),
            dumpedConfiguration,
        ] {
            #expect(!text.contains("very-secret-value"), "\(text)")
            #expect(!text.contains("session-token-value"), "\(text)")
            #expect(!text.contains("AKIAREDACTED00000001"), "\(text)")
        }
        #expect(
            "\(credentials)"
                == "S3Credentials(accessKeyID: AKIA…, secretAccessKey: <redacted>, sessionToken: <redacted>)")
    }

}
