import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPITestSupport

/// The example host's Office-for-the-web pages in headless Chromium, as a new user tries them: `wopi-host serve
/// --demo --discovery-url …` against a stand-in WOPI client served by the test (its own discovery XML and proof key).
/// The stand-in receives the host page's form POST, calls CheckFileInfo, Lock, GetFile, PutFile and Unlock with
/// signed proofs, and talks PostMessage with the page.
@Suite(.serialized) struct HostPageBrowserTests {
    static let screenshotPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Docs/images/office-for-the-web-host-page.png").standardized

    static func withHost(
        extraArguments: [String] = [],
        _ body: @Sendable (_ host: String, _ client: StandInWOPIClient, _ data: URL) async throws -> Void
    ) async throws {
        let client = StandInWOPIClient(signer: try ProofSigner())
        try await client.run { clientURL in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let process = try HostProcess(
                dataDirectory: directory.url,
                extraArguments: ["--discovery-url", clientURL + "/hosting/discovery"] + extraArguments)
            do {
                let host = try await process.waitUntilListening()
                try await body(host, client, directory.url)
                await process.stop()
            } catch {
                await process.stop()
                throw error
            }
        }
    }

    static func signIn(_ browser: ChromeDriver, host: String) async throws {
        try await browser.navigate(to: host + "/files")
        _ = try await browser.waitForURL { $0.contains("/signin?next=") }
        try await browser.type("demo", into: "#username")
        try await browser.type("demo", into: "#password")
        try await browser.click("#submit")
        _ = try await browser.waitForURL { $0.hasSuffix("/files") }
    }

    /// The signed GetFile of a file, as the stand-in would call it.
    static func savedContent(_ session: StandInWOPIClient.Session, signer: ProofSigner) async throws -> String {
        let url = "\(session.wopiSrc)/contents?access_token=\(session.accessToken)"
        return try await HTTP.get(url, headers: try signer.headers(url: url, token: session.accessToken)).text
    }

    @Test func editingADocxThroughTheHostPage() async throws {
        try await Self.withHost { host, client, _ in
            try await ChromeDriver.with(windowSize: "1280,800") { browser in
                try await Self.signIn(browser, host: host)
                let list = try await browser.pageSource()
                #expect(list.contains("Welcome.docx") && list.contains("Budget.xlsx") && list.contains("Documents/"))
                // The stand-in's discovery offers .docx only: the workbook can only be downloaded.
                #expect(
                    list.contains("action=edit")
                        && !list.contains("Budget.xlsx<span class=\"actions\"><a href=\"\(host)/open"))
                try await browser.click("a[href*='action=edit']")
                _ = try await browser.waitForURL { $0.contains("/open/") && $0.contains("action=edit") }

                try await client.wait(for: "Host_PostmessageReady") { $0.reports.contains("ready") }
                let session = try #require(client.sessions.first)
                #expect(session.action == "edit")
                #expect(session.calls == ["CheckFileInfo 200", "Lock 200", "GetFile 200", "PutFile 200", "Unlock 200"])
                #expect(!session.accessToken.isEmpty && Int64(session.accessTokenTTL) ?? 0 > 0)
                #expect(session.wopiSrc.hasPrefix(host + "/wopi/files/"))
                #expect(session.checkFileInfo["PostMessageOrigin"] == host)
                let closeURL = try #require(session.checkFileInfo["CloseUrl"])
                #expect(closeURL.hasPrefix(host + "/files"))
                #expect(session.checkFileInfo["HostEditUrl"]?.hasPrefix(host + "/open/") == true)
                #expect(session.checkFileInfo["DownloadUrl"]?.hasPrefix(host + "/download/") == true)
                #expect(try await Self.savedContent(session, signer: client.signer) == session.uploaded)
                // The token went in the form body, never in a URL.
                #expect(try await !browser.currentURL().contains(session.accessToken))
                try await browser.waitFor(
                    "return window.wopiHost.received.indexOf('App_LoadingStatus') >= 0", "App_LoadingStatus")

                // A frame from another origin posts UI_Close: ignored.
                try await client.wait(for: "the other-origin frame") { $0.reports.contains("evil") }
                try await browser.waitFor("return window.wopiHost.ignored >= 1", "the other-origin message")
                #expect(try await browser.currentURL().contains("/open/"))

                // UI_Sharing shows the share link; File_Rename retitles the page.
                try await browser.switchToFrame("#office_frame")
                for message in [
                    "{MessageId: 'UI_Sharing', Values: {}}", "{MessageId: 'File_Rename', Values: {NewName: 'Renamed'}}",
                ] {
                    try await browser.execute(
                        "window.parent.postMessage(JSON.stringify(\(message)), arguments[0]);", [host])
                }
                try await browser.switchToTopFrame()
                try await browser.waitFor("return document.title === 'Renamed'", "File_Rename")
                try await browser.waitFor(
                    "var n = document.getElementById('notice'); return !n.hidden && n.textContent.indexOf('/open/') > 0",
                    "the share notice")
                if ProcessInfo.processInfo.environment["WOPIKIT_UPDATE_SCREENSHOTS"] != nil {
                    try await browser.screenshot().write(to: Self.screenshotPath)
                }
                #expect(try await browser.screenshot().prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))

                // The client's UI_Close leaves the page for CloseUrl.
                try await browser.switchToFrame("#office_frame")
                try await browser.execute(
                    "window.parent.postMessage(JSON.stringify({MessageId: 'UI_Close', SendTime: Date.now(), "
                        + "Values: {}}), arguments[0]);", [host])
                try await browser.switchToTopFrame()
                _ = try await browser.waitForURL { $0 == closeURL }
            }
        }
    }

    @Test func aNewDocumentOpensWithEditnewAndIsSaved() async throws {
        try await Self.withHost { host, client, _ in
            try await ChromeDriver.with(windowSize: "1280,800") { browser in
                try await Self.signIn(browser, host: host)
                try await browser.click("#create")
                _ = try await browser.waitForURL { $0.contains("action=editnew") }
                try await client.wait(for: "Host_PostmessageReady") { $0.reports.contains("ready") }
                let session = try #require(client.sessions.first)
                #expect(session.action == "editnew")
                #expect(session.checkFileInfo["BaseFileName"] == "New Document.docx")
                #expect(session.checkFileInfo["Size"] == "0")
                #expect(session.calls == ["CheckFileInfo 200", "PutFile 200"])
                #expect(try await Self.savedContent(session, signer: client.signer) == session.uploaded)
                try await browser.navigate(to: host + "/files")
                #expect(try await browser.pageSource().contains("New Document.docx"))

                // Viewing, then the client's UI_Edit: the page switches to editing.
                let id = try #require(session.wopiSrc.split(separator: "/").last)
                try await browser.navigate(to: "\(host)/open/\(id)?action=view")
                try await client.wait(for: "the view session") { $0.sessions.count == 2 }
                #expect(client.sessions[1].action == "view")
                #expect(client.sessions[1].checkFileInfo["HostEditUrl"] == "\(host)/open/\(id)?action=edit")
                try await browser.waitFor(
                    "return window.wopiHost.received.indexOf('App_LoadingStatus') >= 0", "App_LoadingStatus")
                try await browser.switchToFrame("#office_frame")
                try await browser.execute(
                    "window.parent.postMessage(JSON.stringify({MessageId: 'UI_Edit', Values: {}}), arguments[0]);",
                    [host])
                try await browser.switchToTopFrame()
                _ = try await browser.waitForURL { $0.hasSuffix("/open/\(id)?action=edit") }
                try await client.wait(for: "the edit session") { $0.sessions.count == 3 }
                #expect(client.sessions[2].action == "edit")
            }
        }
    }

    @Test func aDocumentMadeFromATemplateLoadsTemplateSourceAndIsSaved() async throws {
        let templates = try TemporaryDirectory()
        defer { templates.remove() }
        try Data("LETTERHEAD".utf8).write(to: templates.appending("Letter.dotx"))
        try await Self.withHost(extraArguments: ["--templates", templates.url.path]) { host, client, _ in
            try await ChromeDriver.with(windowSize: "1280,800") { browser in
                try await Self.signIn(browser, host: host)
                // The stand-in's capabilities say it loads TemplateSource, and it edits .docx: Letter.dotx is offered.
                #expect(try await browser.pageSource().contains(#"<option value="Letter.dotx">Letter.dotx</option>"#))
                try await browser.click("#create-from-template")
                _ = try await browser.waitForURL { $0.contains("action=edit") }
                try await client.wait(for: "the edit session") { $0.sessions.count == 1 }
                let session = try #require(client.sessions.first)
                #expect(session.action == "edit")
                #expect(session.checkFileInfo["BaseFileName"] == "New Document.docx")
                #expect(session.checkFileInfo["Size"] == "0")
                let source = try #require(session.checkFileInfo["TemplateSource"])
                #expect(
                    session.calls == [
                        "CheckFileInfo 200", "Lock 200", "TemplateSource 200", "PutFile 200", "Unlock 200",
                    ])
                #expect(session.uploaded == "LETTERHEAD + edited by the stand-in")
                #expect(try await Self.savedContent(session, signer: client.signer) == session.uploaded)

                // Saved: CheckFileInfo names no template any more, and the template URL is gone.
                let url = "\(session.wopiSrc)?access_token=\(session.accessToken)"
                let info = try await HTTP.get(
                    url, headers: try client.signer.headers(url: url, token: session.accessToken))
                #expect(info.status == 200 && !info.text.contains("TemplateSource"))
                #expect(try await HTTP.get(source).status == 404)
            }
        }
    }

    @Test func pagesNeedASignInAndUnsignedWOPIRequestsAreRefused() async throws {
        try await Self.withHost { host, _, data in
            let open = try await HTTP.get(host + "/files")
            #expect(open.status == 303 && open.header("Location") == "/signin?next=%2Ffiles")
            let form = try await HostSecurityTests.signInForm(host)
            let wrong = try await HostSecurityTests.signIn(host, "demo", "nope", form: form)
            #expect(wrong.status == 401 && HostSecurityTests.sessionCookie(wrong) == nil)
            let offsite = try await TestHTTP.send(
                .POST, host + "/signin",
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", form.cookie)],
                body: .init(string: "username=demo&password=demo&next=%2F%2Fevil.example&form_token=\(form.token)"))
            #expect(offsite.status == 303 && offsite.header("Location") == "/files")
            #expect(HostSecurityTests.sessionCookie(offsite)?.contains("HttpOnly; SameSite=Lax") == true)
            // With discovery configured, a valid token without a proof is refused.
            let token = try await HostProcess.token(data: data, file: "Welcome.docx")
            let reply = try await HTTP.get("\(token.wopiSrc)?access_token=\(token.accessToken)")
            #expect(reply.status == 500)
            #expect(reply.header("X-WOPI-ServerError")?.contains("missingHeaders") == true)
        }
    }
}
