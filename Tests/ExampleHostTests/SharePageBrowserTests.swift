import Foundation
import Testing
import WOPITestSupport

/// A GetShareUrl link opened in headless Chromium, as the person it was sent to would: the example host's
/// `/share/…` page asks them to sign in, records the share of the link's kind, and shows the item.
@Suite(.serialized) struct SharePageBrowserTests {
    @Test func aShareLinkSignsTheVisitorInAndSharesTheItem() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url).serving { host in try await visit(host, directory) }
    }

    /// The owner's links, opened by Bob, while the host at `host` serves `directory`.
    func visit(_ host: String, _ directory: TemporaryDirectory) async throws {
        _ = try await HostProcess.run(
            ["user", "add", "bob", "--data", directory.url.path, "--password-stdin"], input: "bob-pw\n")

        // The owner asks for links, as Office does with GetShareUrl.
        let welcome = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
        func link(_ type: String) async throws -> String {
            let reply = try await HTTP.post(
                "\(welcome.wopiSrc)?access_token=\(welcome.accessToken)",
                ["X-WOPI-Override": "GET_SHARE_URL", "X-WOPI-UrlType": type])
            #expect(reply.status == 200)
            return try #require(try reply.json()["ShareUrl"] as? String)
        }
        let readOnly = try await link("ReadOnly")
        #expect(readOnly.hasPrefix(host + "/share/"))
        #expect(try await HTTP.get(readOnly.replacingOccurrences(of: "/share/", with: "/share/x")).status == 303)

        try await ChromeDriver.with(windowSize: "1024,700") { browser in
            try await browser.navigate(to: readOnly)
            _ = try await browser.waitForURL { $0.contains("/signin?next=") }
            try await browser.type("bob", into: "#username")
            try await browser.type("bob-pw", into: "#password")
            try await browser.click("#submit")
            _ = try await browser.waitForURL { $0.hasSuffix("/files") }
            #expect(try await browser.pageSource().contains("Shared with me/Welcome.docx"))
        }
        let shares = try await HostProcess.run(["shares", "--data", directory.url.path, "--user", "bob"])
        #expect(shares.contains("Shared with me/Welcome.docx  by demo  view"))
        let bob = try await HostProcess.token(data: directory.url, user: "bob", file: "Shared with me/Welcome.docx")
        let info = try await HTTP.get("\(bob.wopiSrc)?access_token=\(bob.accessToken)").json()
        #expect(info["UserCanWrite"] as? Bool == false, "a ReadOnly link gives view access")

        // A tampered link shares nothing.
        let tampered = readOnly.dropLast(2) + "xx"
        try await ChromeDriver.with(windowSize: "1024,700") { browser in
            try await browser.navigate(to: String(tampered))
            _ = try await browser.waitForURL { $0.contains("/signin?next=") }
            try await browser.type("bob", into: "#username")
            try await browser.type("bob-pw", into: "#password")
            try await browser.click("#submit")
            _ = try await browser.waitForURL { $0.contains("/share/") }
            #expect(try await browser.pageSource().contains("not valid any more"))
        }
        #expect(
            !(try await HostProcess.run(["shares", "--data", directory.url.path, "--user", "bob"])).contains("edit"))
    }
}
