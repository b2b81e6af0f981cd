import Foundation
import HTTPTypes
import Testing
import WOPIDeployment
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// The `Host` and `X-Forwarded-Proto` headers are the client's: every URL the host builds from them must parse,
/// so no value there turns a 401 into a 500.
struct HostileAuthorityTests {
    static func request(authority: String?, forwardedProto: String? = nil, _ target: String) -> WOPIRequest {
        var fields = HTTPFields()
        if let forwardedProto { fields[.xForwardedProto] = forwardedProto }
        return WOPIRequest(
            head: HTTPRequest(method: .get, scheme: "http", authority: authority, path: target, headerFields: fields))
    }

    @Test("an origin is built only from host[:port] and an http or https X-Forwarded-Proto")
    func origins() {
        let valid = [
            ("wopi.example.com", nil, "http://wopi.example.com"),
            ("127.0.0.1:8080", "https", "https://127.0.0.1:8080"), ("[::1]:8080", "HTTPS", "https://[::1]:8080"),
            ("wopi.example.com", "a b", "http://wopi.example.com"),
            ("wopi.example.com", "javascript", "http://wopi.example.com"),
        ]
        for (authority, proto, origin) in valid {
            #expect(
                Self.request(authority: authority, forwardedProto: proto, "/").origin(defaultScheme: "http") == origin)
        }
        for authority in [
            "a b", "", "user@evil.example", "evil.example/path", "a\tb", "a%20b", "évil.example", "a\r\nb",
        ] {
            #expect(Self.request(authority: authority, "/").origin(defaultScheme: "http") == nil, "\(authority)")
        }
    }

    @Test("the bootstrapper without a token is a 401 with its challenge, whatever Host and X-Forwarded-Proto say")
    func bootstrapperChallengeUnderAHostileAuthority() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let deployment = try await WOPIDeployment(
            stores: try DeploymentStores.fileSystem(directory: directory.url),
            configuration: WOPIDeployment.Configuration())
        let cases: [(String?, String?)] = [
            ("a b", nil), ("wopi.test", "a b"), ("a b", "a b"), ("a/b", "https"), (nil, nil),
        ]
        for (authority, proto) in cases {
            let reply = await deployment.host.handle(
                Self.request(authority: authority, forwardedProto: proto, "/wopibootstrapper"))
            #expect(reply.status == .unauthorized, "Host \(authority ?? "-"), X-Forwarded-Proto \(proto ?? "-")")
            let challenge = reply.headers[.wwwAuthenticate] ?? ""
            #expect(challenge.contains("/oauth2/authorize"), "\(challenge)")
        }
    }
}
