import Foundation
import Testing
import WOPITestSupport

/// The host pages probed as an attacker would: where sign-in may send the browser, what `/close` tells another
/// user, sign-out from another site, and what a new password ends.
@Suite(.serialized) struct HostPageHardeningTests {
    typealias Security = HostSecurityTests

    @Test("sign-in only ever returns to a path of this host: tabs, line breaks and backslashes are no way out")
    func signInNeverRedirectsOffSite() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url).serving { host in
            // Each is a URL of another origin to a browser, which drops tabs and line breaks and reads `\` as `/`.
            let offsite = [
                "%2F%09%2Fevil.example", "%2F%0A%2Fevil.example", "%2F%0D%2Fevil.example", "%2F%5Cevil.example",
                "%2F%5C%5Cevil.example", "%09%2F%2Fevil.example", "%2F%2Fevil.example", "https%3A%2F%2Fevil.example",
                "%2F%20%2Fevil.example", "%2F%E2%80%A8%2Fevil.example",
            ]
            for next in offsite {
                let form = try await Security.signInForm(host)
                let reply = try await HTTP.post(
                    host + "/signin",
                    ["Content-Type": "application/x-www-form-urlencoded", "Cookie": form.cookie],
                    body: "username=demo&password=demo&next=\(next)&form_token=\(form.token)")
                #expect(reply.status == 303 && reply.header("Location") == "/files", "\(next): \(reply.status)")
            }
            let form = try await Security.signInForm(host)
            let local = try await HTTP.post(
                host + "/signin", ["Content-Type": "application/x-www-form-urlencoded", "Cookie": form.cookie],
                body: "username=demo&password=demo&next=%2Ffiles%3Fcontainer%3Dabc&form_token=\(form.token)")
            #expect(local.header("Location") == "/files?container=abc", "a path of this host is kept")
        }
    }

    @Test("/close of another's file is a 404 naming nothing; sign-out is refused cross-site, and ends a copied cookie")
    func closeAndSignOut() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url).serving { host in
            _ = try await HostProcess.run(
                ["user", "add", "bob", "--data", directory.url.path, "--password-stdin"], input: "bob-pw\n")
            let welcome = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
            let fileID = try #require(welcome.wopiSrc.split(separator: "/").last)
            let form = try await Security.signInForm(host)
            let bob = String(
                try #require(Security.sessionCookie(try await Security.signIn(host, "bob", "bob-pw", form: form)))
                    .prefix { $0 != ";" })
            let closed = try await HTTP.get(host + "/close/\(fileID)?session=x", headers: ["Cookie": bob])
            #expect(closed.status == 404, "another user's file: \(closed.status) \(closed.header("Location") ?? "")")
            #expect(closed.header("Location") == nil)
            let unknown = try await HTTP.get(host + "/close/doesnotexist", headers: ["Cookie": bob])
            #expect(unknown.status == closed.status, "an unknown ID and another's file look alike")

            let crossSite = try await HTTP.post(
                host + "/signout", ["Cookie": bob, "Origin": "https://evil.example"])
            #expect(crossSite.status == 403)
            #expect(Security.sessionCookie(crossSite) == nil, "the session stays")
            let stillIn = try await HTTP.get(host + "/files", headers: ["Cookie": bob])
            #expect(stillIn.status == 200, "refused cross-site sign-out ended the session: \(stillIn.status)")
            let own = try await HTTP.post(host + "/signout", ["Cookie": bob, "Origin": host])
            #expect(own.status == 303)
            // The server ended the session: a copy of the cookie kept elsewhere signs nobody in.
            let copied = try await HTTP.get(host + "/files", headers: ["Cookie": bob])
            #expect(copied.status == 303, "a copied cookie after sign-out: \(copied.status)")
            #expect(copied.header("Location")?.hasPrefix("/signin") == true)
            let get = try await HTTP.get(host + "/signout")
            #expect(get.status == 405 && get.header("Allow") == "POST", "GET /signout: \(get.status)")
        }
    }

    @Test("user passwd ends the user's page sessions, WOPI access tokens, OAuth access and refresh tokens")
    func newPasswordRevokesEverything() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url).serving { host in
            let form = try await Security.signInForm(host)
            let session = String(
                try #require(Security.sessionCookie(try await Security.signIn(host, "demo", "demo", form: form)))
                    .prefix { $0 != ";" })
            let wopi = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
            let office = try OfficeSignIn(dataFolder: directory.url)
            let tokens = try OfficeSignIn.fields(try await office.redeem(try await office.code(at: host), at: host))
            let access = try #require(tokens["access_token"])
            let refresh = try #require(tokens["refresh_token"])
            let checkFileInfo = "\(wopi.wopiSrc)?access_token=\(wopi.accessToken)"
            #expect(try await HTTP.get(host + "/files", headers: ["Cookie": session]).status == 200)
            #expect(try await HTTP.get(checkFileInfo).status == 200)
            #expect(try await office.bootstrapStatus(access, at: host) == 200)

            let changed = try await HostProcess.run(
                ["user", "passwd", "demo", "--data", directory.url.path, "--password-stdin"], input: "new-pw\n")
            #expect(changed.contains("revoked"), "\(changed)")

            let page = try await HTTP.get(host + "/files", headers: ["Cookie": session])
            #expect(page.status == 303 && page.header("Location")?.hasPrefix("/signin") == true, "the session ended")
            #expect(try await HTTP.get(checkFileInfo).status == 401, "the WOPI access token")
            #expect(try await office.bootstrapStatus(access, at: host) == 401, "the OAuth access token")
            let refreshed = try await office.refresh(refresh, at: host)
            #expect(refreshed.status == 400 && refreshed.text.contains("invalid_grant"), "the refresh token")
            #expect(try await office.signIn(at: host, password: "demo").status != 302, "the old password")
            let again = Security.sessionCookie(
                try await Security.signIn(host, "demo", "new-pw", form: try await Security.signInForm(host)))
            #expect(again != nil, "the new password signs in")
            let unknown = try await ChildProcess.run(
                HostProcess.executable, ["user", "passwd", "nobody", "--data", directory.url.path, "--password-stdin"],
                input: "x\n")
            #expect(unknown.status != 0 && unknown.error.contains("No user nobody"), "\(unknown.error)")
        }
    }
}
