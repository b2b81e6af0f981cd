import Foundation
import NIOHTTP1
import Testing
import WOPIClient
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// The `wopi` tool as a process: sign-in through a scripted `$BROWSER` against a real OAuth server and
/// bootstrapper, then every command, `--json` output and exit codes.
@Suite("wopi command-line tool")
struct WopiCLITests {
    /// A config directory and a `$BROWSER` script that follows the authorize redirect to the loopback listener.
    struct Sandbox {
        let directory: TemporaryDirectory
        var environment: [String: String]

        /// With `signIn`, the scripted browser fills the host's sign-in form (keeping its CSRF cookie) with those
        /// credentials; without, it only follows the authorization endpoint's redirect.
        init(signIn: (user: String, password: String)? = nil) throws {
            directory = try TemporaryDirectory()
            let browser = directory.url.appendingPathComponent("browser.sh")
            if let signIn {
                try ScriptedBrowser.signingIn(user: signIn.user, password: signIn.password, at: browser)
            } else {
                try ScriptedBrowser.followingRedirect(at: browser)
            }
            environment = [
                "XDG_CONFIG_HOME": directory.url.appendingPathComponent("config").path,
                "BROWSER": ScriptedBrowser.command(browser),
            ]
        }

        func wopi(_ arguments: String...) async throws -> WopiProcess.Result {
            try await WopiProcess.run(arguments, environment: environment)
        }

        func local(_ name: String) -> URL { directory.url.appendingPathComponent(name) }
    }

    @Test("login through wopi-host serve's own sign-in page, as the README shows, then put, ls and get")
    func loginAgainstTheExampleHost() async throws {
        let sandbox = try Sandbox(signIn: ("demo", "demo"))
        defer { sandbox.directory.remove() }
        try await ServedHost.with { host in
            let login = try await sandbox.wopi("login", host.baseURL + "/wopibootstrapper", "--json")
            #expect(login.status == 0, "\(login.error)")
            #expect(login.output.contains(#""userID":"demo""#))
            try "from the terminal".write(to: sandbox.local("note.txt"), atomically: true, encoding: .utf8)
            let put = try await sandbox.wopi("put", sandbox.local("note.txt").path, "Documents/cli-note.txt")
            #expect(put.status == 0, "\(put.error)")
            #expect(try await sandbox.wopi("ls", "Documents").output.contains("cli-note.txt"))
            #expect(try await sandbox.wopi("get", "Documents/cli-note.txt", "-").output == "from the terminal")
            #expect(try await sandbox.wopi("rm", "Documents/cli-note.txt").status == 0)
        }

        let wrong = try Sandbox(signIn: ("demo", "not-the-password"))
        defer { wrong.directory.remove() }
        try await ServedHost.with { host in
            let login = try await wrong.wopi("login", host.baseURL + "/wopibootstrapper", "--timeout", "3")
            #expect(login.status != 0)
            #expect(try await wrong.wopi("ls").status == 3)
        }
    }

    @Test("login goes on past a malformed optional UrlSchemes (an Android list that is not triples), with a warning")
    func loginPastAMalformedURLSchemes() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.directory.remove() }
        // The typed URLSchemes cannot hold a bad Android list; a pass-through platform named "Android" can.
        let malformed = URLSchemes(otherPlatforms: ["Android": ["100", "com.contoso.app"]])
        try await OAuthWOPIHost.run(overSocket: true, bootstrapper: { $0.urlSchemes = malformed }) { live in
            let url = live.bootstrapperURL.absoluteString
            let challenge = try #require(try await TestHTTP.send(.GET, url).header("WWW-Authenticate"))
            #expect(challenge.contains("UrlSchemes=\"" + malformed.encodedValue + "\""))
            #expect(throws: WOPIFormatError.self) { try URLSchemes(encodedValue: malformed.encodedValue) }

            let login = try await sandbox.wopi("login", url, "--name", "test", "--json")
            #expect(login.status == 0, "\(login.error)")
            #expect(login.output.contains(#""userID":"ana""#))
            #expect(login.error.contains("UrlSchemes") && login.error.contains("ignored"), "\(login.error)")
            #expect(try await sandbox.wopi("ls").output.contains("Welcome.docx"))
        }
    }

    @Test("login, ls, stat, put, get, mkdir, mv, lock, unlock, rm, open-url, logout, with --json and exit codes")
    func everyCommand() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.directory.remove() }
        let bootstrapper = try await OAuthWOPIHost.run(overSocket: true) { live in
            let url = live.bootstrapperURL.absoluteString
            #expect(try await sandbox.wopi("ls").status == 3)

            let login = try await sandbox.wopi("login", url, "--name", "test", "--json")
            #expect(login.status == 0, "\(login.error)")
            let signedIn = try JSONDecoder().decode([String: String].self, from: Data(login.output.utf8))
            #expect(signedIn["userID"] == "ana" && signedIn["place"] == "test")
            #expect(live.oauth.authorizations == 1)
            let tokenFiles = try FileManager.default.contentsOfDirectory(
                at: sandbox.local("config/wopi/tokens"), includingPropertiesForKeys: nil)
            #expect(tokenFiles.count == 1)
            let mode = try FileManager.default.attributesOfItem(atPath: tokenFiles[0].path)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            // ls: text and JSON.
            let listing = try await sandbox.wopi("ls")
            #expect(
                listing.status == 0 && listing.output.contains("Welcome.docx") && listing.output.contains("Documents/"))
            let json = try await sandbox.wopi("ls", "/", "--json")
            let items = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
            #expect(Set(items?.compactMap { $0["name"] as? String } ?? []) == ["Documents", "Welcome.docx"])

            // put (create, then replace) and get back.
            try "first version".write(to: sandbox.local("report.txt"), atomically: true, encoding: .utf8)
            let created = try await sandbox.wopi("put", sandbox.local("report.txt").path, "Documents", "--json")
            #expect(created.status == 0, "\(created.error)")
            #expect(created.output.contains(#""created":true"#))
            try "second version".write(to: sandbox.local("report.txt"), atomically: true, encoding: .utf8)
            let replaced = try await sandbox.wopi("put", sandbox.local("report.txt").path, "Documents/report.txt")
            #expect(replaced.status == 0, "\(replaced.error)")
            #expect(try await sandbox.wopi("get", "Documents/report.txt", sandbox.local("back.txt").path).status == 0)
            #expect(try String(contentsOf: sandbox.local("back.txt"), encoding: .utf8) == "second version")
            let piped = try await sandbox.wopi("get", "Documents/report.txt", "-")
            #expect(piped.output == "second version")
            let stat = try await sandbox.wopi("stat", "Documents/report.txt", "--json")
            let statJSON = try JSONSerialization.jsonObject(with: Data(stat.output.utf8)) as? [String: Any]
            #expect(statJSON?["size"] as? Int == 14 && statJSON?["lock"] as? String == "")

            // mkdir, mv, rm.
            #expect(try await sandbox.wopi("mkdir", "Documents/Reports").status == 0)
            #expect(try await sandbox.wopi("mkdir", "Documents/Reports").status == 5)
            #expect(try await sandbox.wopi("mv", "Documents/Reports", "Archive").status == 0)
            #expect(try await sandbox.wopi("mv", "Documents/report.txt", "notes.txt").status == 0)
            #expect(try await sandbox.wopi("mv", "Documents/notes.txt", "notes.docx").status == 2)
            #expect(
                try await sandbox.wopi("put", sandbox.local("report.txt").path, "Documents/Archive/r.txt").status == 0)
            #expect(try await sandbox.wopi("rm", "Documents/Archive").status == 5)
            #expect(try await sandbox.wopi("rm", "Documents/Archive/r.txt").status == 0)
            #expect(try await sandbox.wopi("rm", "Documents/Archive").status == 0)
            #expect(try await sandbox.wopi("stat", "Documents/Archive").status == 4)
            #expect(try await sandbox.wopi("get", "Documents/missing.docx", sandbox.local("x").path).status == 4)

            // lock and unlock; a file locked by someone else is a conflict for put.
            let lock = try await sandbox.wopi("lock", "Documents/notes.txt")
            #expect(lock.status == 0)
            let lockID = lock.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await sandbox.wopi("put", sandbox.local("report.txt").path, "Documents/notes.txt").status == 0)
            let root = try await live.host.storage.rootContainer(forUser: "ana")
            let notes = try await live.host.storage.item(atPath: "Documents/notes.txt", under: root.id)
            #expect(try await live.host.locks.lock(on: notes.id)?.id == lockID)
            #expect(try await sandbox.wopi("unlock", "Documents/notes.txt").status == 0)
            #expect(try await live.host.locks.lock(on: notes.id) == nil)
            _ = try await live.host.locks.compareAndSwap(
                file: notes.id, expected: nil, new: FileLock(id: "office", expiresAt: .now.addingTimeInterval(60)))
            let locked = try await sandbox.wopi("put", sandbox.local("report.txt").path, "Documents/notes.txt")
            #expect(locked.status == 5 && locked.error.contains("office"))

            // open-url.
            let welcome = try await live.host.storage.item(atPath: "Welcome.docx", under: root.id)
            let open = try await sandbox.wopi("open-url", "Welcome.docx", "--edit")
            #expect(open.status == 0)
            let expected = OfficeOpenURL(
                app: .word, mode: .edit, wopiSrc: live.endpoint("files", welcome.id), serviceID: "127.0.0.1",
                userID: "ana", fileName: "Welcome.docx")
            #expect(open.output.trimmingCharacters(in: .newlines) == expected.string)
            let excel = try await sandbox.wopi("open-url", "Welcome.docx", "--app", "excel", "--json")
            #expect(excel.output.contains("ms-excel:ofv|u|"))
            #expect(try await sandbox.wopi("open-url", "Documents/notes.txt").status == 2)
            #expect(try await sandbox.wopi("ls", "--bogus").status == 2)

            // An expired OAuth access token is refreshed with the refresh token, without a new sign-in.
            live.oauth.expireAccessTokens()
            #expect(try await sandbox.wopi("ls").status == 0)
            #expect(live.oauth.refreshes == 1 && live.oauth.authorizations == 1)
            return url
        }
        // The host is gone: a network failure.
        let offline = try await sandbox.wopi("ls")
        #expect(offline.status == 6, "\(offline.error)")
        #expect(try await sandbox.wopi("logout").status == 0)
        let after = try await sandbox.wopi("ls")
        #expect(after.status == 3 && after.error.contains("wopi login"))
        #expect(!bootstrapper.isEmpty)
    }
}
