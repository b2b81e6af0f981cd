import Foundation
import Synchronization
import Testing
import WOPITestSupport

/// The versions view of the example host in headless Chromium: the editor's `UI_FileVersions` opens it, it lists the
/// versions an editing session left, downloads each, keeps one by name and restores the oldest, and GetFile then
/// returns the old bytes.
@Suite(.serialized) struct VersionsPageBrowserTests {
    static let rows = "document.querySelectorAll('#versions tbody tr')"

    @Test func theEditorOpensTheVersionsViewWhichRestoresAnOldVersion() async throws {
        try await HostPageBrowserTests.withHost { host, client, _ in
            try await ChromeDriver.with(windowSize: "1280,800") { browser in
                let (session, versionsURL) = try await Self.edit(browser, host: host, client: client)
                #expect(versionsURL.hasPrefix(host + "/versions/"))

                // The editor's "Version history" posts UI_FileVersions: the page goes to the versions view.
                try await browser.switchToFrame("#office_frame")
                try await browser.execute(
                    "window.parent.postMessage(JSON.stringify({MessageId: 'UI_FileVersions', SendTime: Date.now(), "
                        + "Values: {}}), arguments[0]);", [host])
                try await browser.switchToTopFrame()
                _ = try await browser.waitForURL { $0 == versionsURL }
                #expect(try await browser.execute("return \(Self.rows).length") as? Int == 2)
                let newest = try await Self.row(0, browser)
                #expect(newest.text.contains("Current") && newest.text.contains("PutFile"))
                let oldest = try await Self.row(1, browser)

                // Each version downloads as it was saved: the newest is the stand-in's upload.
                #expect(try await Self.fetch(newest.download, browser) == session.uploaded)

                try await browser.click("button[data-action='keep'][data-version='\(oldest.id)']")
                try await browser.waitFor(
                    "return \(Self.rows)[1].textContent.indexOf('Kept') >= 0", "the kept version")

                try await browser.click("button[data-action='restore'][data-version='\(oldest.id)']")
                try await browser.waitFor("return \(Self.rows).length === 3", "the restored version")
                let restored = try await Self.row(0, browser)
                #expect(restored.text.contains("Current") && restored.text.contains("Restore"))
                #expect(try await browser.currentURL() == versionsURL)

                // GetFile returns the bytes the editor first read.
                let url = "\(session.wopiSrc)/contents?access_token=\(session.accessToken)"
                let content = try await HTTP.get(
                    url, headers: try client.signer.headers(url: url, token: session.accessToken))
                #expect(content.status == 200 && content.body == session.read)

                // The oldest version opens read-only in the client, through a WOPISrc of its own.
                try await browser.click("tr[data-version='\(oldest.id)'] a[data-action='open']")
                try await client.wait(for: "the version's session") { $0.sessions.count == 2 }
                let view = client.sessions[1]
                #expect(view.action == "view" && view.wopiSrc.contains("/wopi/files/vv_"))
                #expect(view.calls == ["CheckFileInfo 200", "GetFile 200"])
                #expect(view.read == session.read, "the version's bytes")
                #expect(view.checkFileInfo["ReadOnly"] == "1" && view.checkFileInfo["UserCanWrite"] == "0")
                #expect(view.checkFileInfo["Version"] == oldest.id)
                let put = "\(view.wopiSrc)/contents?access_token=\(view.accessToken)"
                let signed = try client.signer.headers(url: put, token: view.accessToken)
                let write = try await HTTP.post(put, signed.merging(["X-WOPI-Override": "PUT"]) { $1 }, body: "x")
                let lock = try await Self.wopi(view, client, override: "LOCK")
                #expect(write.status == 401 && lock.status == 401, "no write reaches a version")
            }
        }
    }

    @Test func restoringWhileCollaboraEditsRunsItsHandshakeAndPassesItsLock() async throws {
        try await HostPageBrowserTests.withHost { host, client, _ in
            client.state.withLock { $0.mimicsCollabora = true }
            try await ChromeDriver.with(windowSize: "1280,800") { browser in
                let (session, versionsURL) = try await Self.edit(browser, host: host, client: client)
                let lock = try await Self.wopi(session, client, override: "GET_LOCK")
                #expect(lock.header("X-WOPI-Lock") == "stand-in-lock", "the editor keeps its lock")

                // Without the editor's acknowledgement, the versions view cannot restore under the lock.
                let listed = try #require(try await Self.fetch(versionsURL + "?format=json", browser))
                let ids = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
                    .compactMap { $0["id"] as? String }
                try #require(ids.count == 2, "the versions before and after the editor's save: \(listed)")
                let oldest = ids[1]
                let refused =
                    try await browser.execute(
                        "var x = new XMLHttpRequest(); x.open('POST', arguments[0], false); "
                            + "x.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded'); "
                            + "x.send('action=restore&version=' + encodeURIComponent(arguments[1])); return x.status;",
                        [versionsURL, oldest]) as? Int
                #expect(refused == 409)

                // The editor's UI_FileVersions opens the page's panel; its Restore asks the editor first.
                try await browser.waitFor(
                    "return window.wopiHost.received.indexOf('App_LoadingStatus') >= 0", "App_LoadingStatus")
                try await browser.switchToFrame("#office_frame")
                try await browser.execute(
                    "window.parent.postMessage(JSON.stringify({MessageId: 'UI_FileVersions', SendTime: Date.now(), "
                        + "Values: {}}), arguments[0]);", [host])
                try await browser.switchToTopFrame()
                try await browser.waitFor(
                    "return !document.getElementById('versions').hidden", "the versions panel")
                #expect(try await browser.currentURL().contains("/open/"), "the editor stays open")
                try await browser.click("#versions button[data-action='restore'][data-version='\(oldest)']")
                try await client.wait(for: "Host_VersionRestore") { $0.reports.contains("pre-restore") }
                try await browser.waitFor(
                    "return window.wopiHost.restored.indexOf('\(oldest)') >= 0", "the restore")

                let content = try await Self.wopi(session, client, override: nil)
                #expect(content.status == 200 && content.body == session.read, "GetFile returns the old bytes")
                let after = try await Self.wopi(session, client, override: "GET_LOCK")
                #expect(after.header("X-WOPI-Lock") == "stand-in-lock", "the lock stays the editor's")
            }
        }
    }

    /// Signs in, opens the first file the list offers for editing, and waits for the stand-in's session; returns it
    /// with the versions view CheckFileInfo named.
    static func edit(_ browser: ChromeDriver, host: String, client: StandInWOPIClient) async throws
        -> (StandInWOPIClient.Session, versionsURL: String)
    {
        try await HostPageBrowserTests.signIn(browser, host: host)
        try await browser.click("a[href*='action=edit']")
        try await client.wait(for: "Host_PostmessageReady") { $0.reports.contains("ready") }
        let session = try #require(client.sessions.first)
        return (session, try #require(session.checkFileInfo["FileVersionUrl"]))
    }

    /// A signed WOPI call of `session`: GetFile without `override`, else a POST with `X-WOPI-Override`.
    static func wopi(_ session: StandInWOPIClient.Session, _ client: StandInWOPIClient, override: String?)
        async throws -> HTTP.Reply
    {
        let url = "\(session.wopiSrc)\(override == nil ? "/contents" : "")?access_token=\(session.accessToken)"
        let headers = try client.signer.headers(url: url, token: session.accessToken)
        guard let override else { return try await HTTP.get(url, headers: headers) }
        return try await HTTP.post(url, headers.merging(["X-WOPI-Override": override]) { $1 })
    }

    /// The version ID, text and download URL of row `index` of the list.
    static func row(_ index: Int, _ browser: ChromeDriver) async throws -> (id: String, text: String, download: String)
    {
        let row = "\(rows)[\(index)]"
        let id = try #require(try await browser.execute("return \(row).dataset.version") as? String)
        let text = try #require(try await browser.execute("return \(row).textContent") as? String)
        let download = try #require(
            try await browser.execute("return \(row).querySelector('a[data-action=download]').href") as? String)
        return (id, text, download)
    }

    /// What `url` answers the signed-in browser.
    static func fetch(_ url: String, _ browser: ChromeDriver) async throws -> String? {
        try await browser.execute(
            "var x = new XMLHttpRequest(); x.open('GET', arguments[0], false); x.send(); return x.responseText;", [url])
            as? String
    }
}
