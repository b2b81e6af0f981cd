import Foundation
import Testing
import WOPITestSupport

/// The README's "minimal host" is `Examples/minimal-host/main.swift` word for word, and that program serves a
/// whole host: a provider who copies the snippet gets what the README says.
@Suite struct MinimalHostTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the README's minimal host is the example that builds, and it is under 40 lines")
    func readmeShowsTheExample() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## A minimal host"), "README has a minimal host section")
        let fence = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```\n", range: fence.upperBound..<readme.endIndex))
        let snippet = String(readme[fence.upperBound..<end.lowerBound])
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/minimal-host/main.swift"), encoding: .utf8)
        #expect(snippet == source, "README.md's minimal host differs from Examples/minimal-host/main.swift")
        #expect(source.split(separator: "\n", omittingEmptySubsequences: false).count < 40)
    }

    @Test("the minimal host serves WOPI, the bootstrapper's challenge and OAuth metadata")
    func minimalHostServes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(
            executable: ChildProcess.built("wopikit-minimal-host"), arguments: [directory.appending("data").path],
            dataDirectory: directory.url, environment: ["PORT": "0"])
        try await host.serving { url in
            #expect(try await HTTP.get(url + "/health").text == "ok")
            let bootstrap = try await HTTP.get(url + "/wopibootstrapper")
            #expect(bootstrap.status == 401)
            #expect(
                bootstrap.header("WWW-Authenticate")?.contains("authorization_uri=\"\(url)/oauth2/authorize\"") == true)
            let metadata = try await HTTP.get(url + "/.well-known/oauth-authorization-server").json()
            #expect(metadata["token_endpoint"] as? String == url + "/oauth2/token")
            #expect(try await HTTP.get(url + "/wopi/files/abc?access_token=x").status == 401)
        }
        #expect(FileManager.default.fileExists(atPath: directory.appending("data/wopi.sqlite").path))
    }
}
