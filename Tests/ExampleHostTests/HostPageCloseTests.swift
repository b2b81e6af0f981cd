import Foundation
import Testing
import WOPITestSupport

/// `serve --lock-grace-after-close`: the host page's close of the last editing session of a file shortens a lock
/// the WOPI client left behind (here to 0 seconds, so no test waits), over the example host's sockets.
@Suite(.serialized) struct HostPageCloseTests {
    @Test("the page's close of the last session releases the lock the client left; without it the lock stays")
    func closeReleasesTheLock() async throws {
        try await HostPageBrowserTests.withHost(extraArguments: ["--lock-grace-after-close", "0"]) {
            host, client, data in
            let form = try await HostSecurityTests.signInForm(host)
            let signedIn = try await HostSecurityTests.signIn(host, "demo", "demo", form: form)
            let session = try #require(HostSecurityTests.sessionCookie(signedIn)).prefix { $0 != ";" }
            let token = try await HostProcess.token(data: data, file: "Welcome.docx")
            let id = try #require(token.wopiSrc.split(separator: "/").last)
            func wopi(_ override: String) async throws -> HTTP.Reply {
                let url = "\(token.wopiSrc)?access_token=\(token.accessToken)"
                var headers = try client.signer.headers(url: url, token: token.accessToken)
                headers["X-WOPI-Override"] = override
                headers["X-WOPI-Lock"] = "left-behind"
                return try await HTTP.post(url, headers)
            }

            let page = try await HTTP.get(host + "/open/\(id)?action=edit", headers: ["Cookie": String(session)])
            #expect(page.status == 200)
            let marker = try #require(page.text.range(of: "session="))
            let pageSession = String(
                page.text[marker.upperBound...].prefix { $0.isLetter || $0.isNumber || "-_".contains($0) })
            #expect(pageSession.count >= 20, "the close URL names the page's own session")
            #expect(try await wopi("LOCK").status == 200)

            let forged = try await HTTP.get(host + "/close/\(id)?session=forged", headers: ["Cookie": String(session)])
            #expect(forged.status == 303)
            #expect(try await wopi("GET_LOCK").header("X-WOPI-Lock") == "left-behind", "another session's close")

            let close = try await HTTP.get(
                host + "/close/\(id)?session=\(pageSession)", headers: ["Cookie": String(session)])
            #expect(close.status == 303 && close.header("Location")?.contains("/files") == true)
            #expect(try await wopi("GET_LOCK").header("X-WOPI-Lock") == "", "the last session closed: released")
        }
    }
}
