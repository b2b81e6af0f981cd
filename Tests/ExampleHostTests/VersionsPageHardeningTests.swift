import Foundation
import NIOCore
import Testing
import WOPITestSupport

/// The versions view probed as an attacker would: another user's file, a restore posted from another site, a
/// version ID that names nothing; and the download of each version, on a running `wopi-host serve`.
@Suite(.serialized) struct VersionsPageHardeningTests {
    typealias Security = HostSecurityTests

    @Test(
        "another user's versions are a 404; a cross-site restore is refused; a restore from the page adds a version",
        arguments: ["sqlite", "fs"])
    func versionsViewRefusesWhatItShould(storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url, extraArguments: ["--storage", storage]).serving { host in
            let data = directory.url.path
            let edited = directory.url.appendingPathComponent("edited.docx")
            try Data("the second version".utf8).write(to: edited)
            _ = try await HostProcess.run(
                ["import", "--data", data, "--user", "demo", "--overwrite", edited.path, "Welcome.docx"])
            _ = try await HostProcess.run(
                ["user", "add", "bob", "--data", data, "--password-stdin"], input: "bob-pw\n")
            let welcome = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
            let fileID = try #require(welcome.wopiSrc.split(separator: "/").last)
            func versions() async throws -> [[String: Any]] {
                let json = try await HostProcess.run(
                    ["versions", "--data", data, "--user", "demo", "Welcome.docx", "--json"])
                return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            }
            let before = try await versions()
            try #require(before.count == 2)
            let oldest = try #require(before.last?["id"] as? String)
            func session(_ user: String, _ password: String) async throws -> String {
                let form = try await Security.signInForm(host)
                let reply = try await Security.signIn(host, user, password, form: form)
                return String(try #require(Security.sessionCookie(reply)).prefix { $0 != ";" })
            }
            let demo = try await session("demo", "demo")
            let bob = try await session("bob", "bob-pw")
            let form = ["Content-Type": "application/x-www-form-urlencoded"]
            let restore = "action=restore&version=\(oldest)"

            let page = try await HTTP.get(host + "/versions/\(fileID)", headers: ["Cookie": demo])
            #expect(page.status == 200 && page.header("Cache-Control") == "no-store")
            #expect(page.text.contains("data-version=\"\(oldest)\""))
            let old = try await HTTP.get(host + "/download/\(fileID)?version=\(oldest)", headers: ["Cookie": demo])
            #expect(old.status == 200 && old.body.readableBytes > 0 && old.text != "the second version")
            let unknown = try await HTTP.get(host + "/download/\(fileID)?version=nothing", headers: ["Cookie": demo])
            #expect(unknown.status == 404, "an unknown version: \(unknown.status)")

            let othersView = try await HTTP.get(host + "/versions/\(fileID)", headers: ["Cookie": bob])
            let othersDownload = try await HTTP.get(
                host + "/download/\(fileID)?version=\(oldest)", headers: ["Cookie": bob])
            let othersRestore = try await HTTP.post(
                host + "/versions/\(fileID)", form.merging(["Cookie": bob]) { $1 }, body: restore)
            let othersStatuses: [Int] = [othersView.status, othersDownload.status, othersRestore.status]
            #expect(othersStatuses == [404, 404, 404], "another user's file looks like no file")
            let crossSite = try await HTTP.post(
                host + "/versions/\(fileID)", form.merging(["Cookie": demo, "Origin": "https://evil.example"]) { $1 },
                body: restore)
            #expect(crossSite.status == 403)
            #expect(try await versions().count == 2, "a refused restore changed nothing")

            let own = try await HTTP.post(
                host + "/versions/\(fileID)", form.merging(["Cookie": demo, "Origin": host]) { $1 }, body: restore)
            #expect(own.status == 303 && own.header("Location") == host + "/versions/\(fileID)")
            let after = try await versions()
            #expect(after.count == 3)
            #expect(after.first?["path"] as? String == "Restore")
            let current = try await HTTP.get(host + "/download/\(fileID)", headers: ["Cookie": demo])
            #expect(current.body == old.body, "the restored content is the old version's")
        }
    }
}
