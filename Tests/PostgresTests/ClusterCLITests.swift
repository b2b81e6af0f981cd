import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// The README's "several hosts" walk-through as a test: the real `wopi` tool signs in and moves files through nginx
/// in front of 3 hosts on PostgreSQL, so each step of the CSPP flow (bootstrapper challenge, sign-in, code, token,
/// bootstrap, root container, children, file, Lock, PutFile, Unlock, OAuth refresh, GetNewAccessToken) reaches
/// whichever host nginx picks.
@Suite("PostgreSQL: the wopi tool through nginx over 3 hosts")
struct ClusterCLITests {
    @Test("wopi login, put, lock, get through the front; a host killed mid-run; refresh and GetNewAccessToken after")
    func cliThroughTheBalancer() async throws {
        let cluster = try await HostCluster.startBehindBalancer(3)
        let sandbox = try TemporaryDirectory()
        do {
            let front = try #require(cluster.front)
            let browser = sandbox.appending("browser.sh")
            try ScriptedBrowser.signingIn(user: "demo", password: "demo", at: browser)
            let environment = [
                "XDG_CONFIG_HOME": sandbox.appending("config").path, "BROWSER": ScriptedBrowser.command(browser),
            ]
            func wopi(_ arguments: String...) async throws -> ChildProcess.Result {
                try await ChildProcess.run(ChildProcess.built("wopi"), arguments, environment: environment)
            }

            let login = try await wopi("login", front.url + "/wopibootstrapper", "--json")
            try #require(login.status == 0, "\(login.error)")
            #expect(login.output.contains(#""userID":"demo""#), "\(login.output)")

            let local = sandbox.appending("note.txt")
            for round in 0..<6 {
                if round == 3 {
                    // A host dies mid-run: nginx sends the rest to the other two, nothing is lost.
                    await cluster.hosts[1].stop(signal: SIGKILL)
                }
                let text = "round \(round) through the front"
                try text.write(to: local, atomically: true, encoding: .utf8)
                let put = try await wopi("put", local.path, "Documents/cluster-note.txt")
                #expect(put.status == 0, "round \(round): \(put.error)")
                let get = try await wopi("get", "Documents/cluster-note.txt", "-")
                #expect(get.status == 0 && get.output == text, "round \(round): \(get.output) \(get.error)")
            }
            // A lock taken with `wopi lock` is held across hosts: the next put uses it, unlock releases it.
            #expect(try await wopi("lock", "Documents/cluster-note.txt").status == 0)
            try "locked".write(to: local, atomically: true, encoding: .utf8)
            #expect(try await wopi("put", local.path, "Documents/cluster-note.txt").status == 0)
            #expect(try await wopi("unlock", "Documents/cluster-note.txt").status == 0)
            #expect(try await wopi("get", "Documents/cluster-note.txt", "-").output == "locked")
            #expect(try await wopi("ls", "Documents").output.contains("cluster-note.txt"))

            // The refresh grant through the front, with the refresh token `wopi login` saved.
            let refreshToken = try Self.savedRefreshToken(in: sandbox.appending("config/wopi/tokens"))
            let refreshed = try await TestHTTP.send(
                .POST, front.url + "/oauth2/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: ByteBuffer(string: "grant_type=refresh_token&client_id=wopi-cli&refresh_token=\(refreshToken)"))
            #expect(refreshed.status == 200, "\(refreshed.text)")
            let tokens = try JSONSerialization.jsonObject(with: Data(refreshed.text.utf8)) as? [String: Any] ?? [:]
            let access = try #require(tokens["access_token"] as? String)
            #expect(tokens["refresh_token"] as? String != refreshToken)
            let bootstrap = try await TestHTTP.send(
                .GET, front.url + "/wopibootstrapper", headers: [("Authorization", "Bearer \(access)")])
            #expect(bootstrap.status == 200, "\(bootstrap.text)")
            // GetNewAccessToken through the front with the new OAuth token: a WOPI token for the file, which opens
            // it through the front (CheckFileInfo, GetFile), whichever host answers.
            let wopiSrc = try await cluster.mint(for: "Documents/cluster-note.txt").wopiSrc
            #expect(wopiSrc.hasPrefix(front.url + "/wopi/files/"), "\(wopiSrc)")
            let fresh = try await TestHTTP.send(
                .POST, front.url + "/wopibootstrapper",
                headers: [
                    ("Authorization", "Bearer \(access)"), ("X-WOPI-EcosystemOperation", "GET_NEW_ACCESS_TOKEN"),
                    ("X-WOPI-WopiSrc", wopiSrc),
                ])
            #expect(fresh.status == 200, "\(fresh.text)")
            let info = try JSONSerialization.jsonObject(with: Data(fresh.text.utf8)) as? [String: Any] ?? [:]
            let wopiToken = try #require((info["AccessTokenInfo"] as? [String: Any])?["AccessToken"] as? String)
            for _ in 0..<3 {
                let contents = try await TestHTTP.send(.GET, "\(wopiSrc)/contents?access_token=\(wopiToken)")
                #expect(contents.status == 200 && contents.text == "locked", "\(contents.status) \(contents.text)")
            }

            // Every request went through nginx, and the three hosts shared them (host 2 until it was killed).
            let perHost = await front.requestsPerHost()
            for base in cluster.bases {
                #expect(perHost[base.replacingOccurrences(of: "http://", with: ""), default: 0] > 3, "\(perHost)")
            }
        } catch {
            await cluster.stop()
            sandbox.remove()
            throw error
        }
        await cluster.stop()
        sandbox.remove()
    }

    /// The refresh token in the one token file `wopi login` saved.
    static func savedRefreshToken(in folder: URL) throws -> String {
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        let file = try #require(files.first { $0.pathExtension == "json" }, "no token file in \(folder.path)")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        return try #require((saved["refreshToken"] ?? saved["refresh_token"]) as? String, "\(saved.keys)")
    }
}
