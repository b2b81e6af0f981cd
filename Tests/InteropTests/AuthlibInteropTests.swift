import Foundation
import Testing
import WOPITestSupport

/// WOPIKit against an OAuth 2.0 implementation it shares no code with: Authlib, a widely used Python library
/// (Debian's `python3-authlib`, installed by `make test`). Its client signs in to `wopi-host serve` the way a
/// third-party native app would, and `wopi login` signs in to an Authlib authorization server that answers a
/// WOPI-style bootstrapper challenge.
@Suite("Interoperability with Authlib (an independent OAuth 2.0 implementation)")
struct AuthlibInteropTests {
    /// Debian's interpreter, where `python3-authlib`, `python3-flask` and `python3-requests` are installed.
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/\(name)").path
    }

    /// Fails with what to install when Debian's Python or Authlib is missing: this suite never skips.
    static func requireAuthlib() async throws {
        let probe = try await ChildProcess.run(python, ["-c", "import authlib, flask, requests"])
        let needed = "Debian's python3 with python3-authlib, python3-flask and python3-requests is needed"
        try #require(probe.status == 0, "\(needed) (scripts/install-deps.sh --test installs them): \(probe.error)")
    }

    @Test("Authlib's client signs in to wopi-host serve: metadata, PKCE S256, loopback redirect, state, iss, refresh")
    func authlibClientAgainstServe() async throws {
        try await Self.requireAuthlib()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(dataDirectory: directory.appending("data"))
        let url = try await host.waitUntilListening()
        let run = try await ChildProcess.run(
            Self.python, [Self.script("oauth_client.py"), url, url + "/wopibootstrapper", "wopi-cli", "demo", "demo"])
        await host.stop()
        try #require(run.status == 0, "Authlib client: \(run.output) \(run.error)")

        struct Outcome: Decodable {
            struct Bootstrap: Decodable {
                struct Body: Decodable {
                    var UserId: String
                    var SignInName: String
                    var EcosystemUrl: String
                }
                var Bootstrap: Body
            }
            var access_token: String
            var expires_in: Int
            var refreshed_access_token: String
            var rotated_refresh_token: Bool
            var bootstrap: Bootstrap
        }
        let outcome = try JSONDecoder().decode(Outcome.self, from: Data(run.output.utf8))
        #expect(outcome.expires_in > 0)
        #expect(outcome.refreshed_access_token != outcome.access_token)
        #expect(outcome.rotated_refresh_token, "a refresh must rotate the refresh token")
        #expect(outcome.bootstrap.Bootstrap.UserId == "demo")
        #expect(outcome.bootstrap.Bootstrap.EcosystemUrl.hasPrefix(url))
    }

    /// An Authlib authorization server (`oauth_server.py --mode MODE`) with a bootstrapper, for one test.
    static func withAuthlibServer(
        mode: String, _ body: (_ bootstrapper: String, _ sandbox: TemporaryDirectory) async throws -> Void
    ) async throws {
        try await requireAuthlib()
        let sandbox = try TemporaryDirectory()
        defer { sandbox.remove() }
        let server = try HostProcess(
            executable: python, arguments: ["-u", script("oauth_server.py"), "--mode", mode], dataDirectory: sandbox.url
        )
        do {
            let url = try await server.waitUntilListening(timeout: .seconds(30))
            try ScriptedBrowser.followingRedirect(at: sandbox.appending("browser.sh"))
            try await body(url + "/wopibootstrapper", sandbox)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func wopi(_ arguments: [String], in sandbox: TemporaryDirectory) async throws -> ChildProcess.Result {
        try await ChildProcess.run(
            ChildProcess.built("wopi"), arguments,
            environment: [
                "XDG_CONFIG_HOME": sandbox.appending("config").path,
                "BROWSER": ScriptedBrowser.command(sandbox.appending("browser.sh")),
            ])
    }

    @Test("wopi login signs in to an Authlib server through its bootstrapper challenge, and stays signed in")
    func wopiLoginAgainstAuthlib() async throws {
        try await Self.withAuthlibServer(mode: "ok") { bootstrapper, sandbox in
            let login = try await Self.wopi(["login", bootstrapper, "--json", "--timeout", "20"], in: sandbox)
            try #require(login.status == 0, "wopi login: \(login.output) \(login.error)")
            let place = try JSONDecoder().decode([String: String].self, from: Data(login.output.utf8))
            #expect(place["userID"] == "indie-user")
            // Authlib's tokens are kept for the place (its refresh token included) for later commands.
            let tokens = try FileManager.default.contentsOfDirectory(
                atPath: sandbox.appending("config/wopi/tokens").path)
            #expect(!tokens.isEmpty)
        }
    }

    @Test("wopi login reports the Authlib server's access_denied and signs nobody in")
    func wopiLoginDenied() async throws {
        try await Self.withAuthlibServer(mode: "deny") { bootstrapper, sandbox in
            let login = try await Self.wopi(["login", bootstrapper, "--timeout", "20"], in: sandbox)
            #expect(login.status != 0)
            #expect(
                login.error.contains("The sign-in was declined"), "access_denied, as WOPIOAuth maps it: \(login.error)")
            #expect(try await Self.wopi(["ls"], in: sandbox).status == 3)
        }
    }

    @Test("wopi login rejects a redirect whose state is not the one it sent")
    func wopiLoginWrongState() async throws {
        try await Self.withAuthlibServer(mode: "wrong-state") { bootstrapper, sandbox in
            let login = try await Self.wopi(["login", bootstrapper, "--timeout", "20"], in: sandbox)
            #expect(login.status != 0)
            #expect(login.error.lowercased().contains("state"), "\(login.error)")
            #expect(try await Self.wopi(["ls"], in: sandbox).status == 3)
        }
    }
}
