import Foundation
import Synchronization
import Testing
import WOPIOAuth
import WOPITestSupport

@Suite("System browser launching")
struct SystemBrowserTests {
    let url = URL(string: "https://contoso.com/authorize?client_id=a&state=x%20y&redirect_uri=http%3A%2F%2F127.0.0.1")!

    /// Writes a browser script that records its arguments, one a line, into `args.txt` beside it.
    private func makeBrowser(in directory: URL, exitStatus: Int = 0) throws -> (script: URL, record: URL) {
        let script = directory.appendingPathComponent("browser.sh")
        let record = directory.appendingPathComponent("args.txt")
        try """
        #!/bin/sh
        for arg in "$@"; do printf '%s\\n' "$arg"; done > "\(record.path)"
        exit \(exitStatus)

        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return (script, record)
    }

    private func recordedArguments(_ record: URL) throws -> [String] {
        try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func substitutesPercentS() async throws {
        try await withTemporaryDirectory { directory in
            let (script, record) = try makeBrowser(in: directory)
            let browser = SystemBrowser(
                environment: ["BROWSER": "\(ScriptedBrowser.command(script)) --new-tab '--url=%s' --flag"],
                fallbackCommands: [])
            try await browser.open(url)
            #expect(try recordedArguments(record) == ["--new-tab", "--url=\(url.absoluteString)", "--flag"])
        }
    }

    @Test func appendsTheURLWithoutPercentS() async throws {
        try await withTemporaryDirectory { directory in
            let (script, record) = try makeBrowser(in: directory)
            let browser = SystemBrowser(
                environment: ["BROWSER": "\(ScriptedBrowser.command(script)) --private"], fallbackCommands: [])
            try await browser.open(url)
            #expect(try recordedArguments(record) == ["--private", url.absoluteString])
        }
    }

    @Test func triesEachEntryOfAColonSeparatedList() async throws {
        try await withTemporaryDirectory { directory in
            let (script, record) = try makeBrowser(in: directory)
            let browser = SystemBrowser(
                environment: ["BROWSER": "/nonexistent/firefox:\(ScriptedBrowser.command(script))"],
                fallbackCommands: [])
            #expect(browser.commandLines(for: url).count == 2)
            try await browser.open(url)
            #expect(try recordedArguments(record) == [url.absoluteString])
        }
    }

    @Test func fallsBackToThePlatformOpener() async throws {
        try await withTemporaryDirectory { directory in
            let (script, record) = try makeBrowser(in: directory)
            let failing = directory.appendingPathComponent("failing.sh")
            try "#!/bin/sh\nexit 3\n".write(to: failing, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: failing.path)
            let browser = SystemBrowser(
                environment: ["BROWSER": ScriptedBrowser.command(failing)],
                fallbackCommands: [["/bin/sh", script.path]])
            try await browser.open(url)
            #expect(try recordedArguments(record) == [url.absoluteString])
        }
    }

    @Test func reportsWhenNothingOpens() async {
        let browser = SystemBrowser(environment: ["BROWSER": "/nonexistent/a:/nonexistent/b"], fallbackCommands: [])
        do {
            try await browser.open(url)
            Issue.record("claimed to open a browser")
        } catch let error as OAuthError {
            #expect(error.code == .userAgentFailed)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func aBrowserStillRunningAfterTheGracePeriodCountsAsOpened() async throws {
        try await withTemporaryDirectory { directory in
            // A browser that stays open until the test lets it go (or 10 s pass), like a browser's first window.
            let released = directory.appendingPathComponent("released")
            let script = directory.appendingPathComponent("staying.sh")
            try """
            #!/bin/sh
            i=0
            while [ ! -e '\(released.path)' ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done

            """.write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            let clock = TestClock()
            let browser = SystemBrowser(
                environment: ["BROWSER": ScriptedBrowser.command(script)], fallbackCommands: [],
                launchGracePeriod: .seconds(2),
                clock: clock)
            let opening = Task { try await browser.open(url) }
            await clock.waitForSleepers()
            clock.advance(by: .seconds(2))
            try await opening.value
            _ = FileManager.default.createFile(atPath: released.path, contents: nil)
        }
    }

    @Test func usesThePlatformOpenerByDefault() {
        let browser = SystemBrowser(environment: [:])
        #expect(browser.commandLines(for: url).last?.last == url.absoluteString)
        #expect(browser.commandLines(for: url).count == SystemBrowser.platformCommands.count)
    }

    @Test func printingAgentShowsTheURL() async throws {
        let printed = PrintedText()
        try await PrintingUserAgent(write: { printed.append($0) }).open(url)
        #expect(printed.text.contains(url.absoluteString))
    }

    @Test func fallbackPrintsTheURLWhenNoBrowserOpens() async throws {
        let printed = PrintedText()
        let noBrowser = SystemBrowser(environment: ["BROWSER": "false"], fallbackCommands: [])
        try await FallbackUserAgent(primary: noBrowser, fallback: PrintingUserAgent(write: { printed.append($0) }))
            .open(url)
        #expect(printed.text.contains(url.absoluteString))
    }

    @Test func fallbackIsUnusedWhenTheBrowserOpens() async throws {
        let printed = PrintedText()
        let browser = SystemBrowser(environment: ["BROWSER": "true"], fallbackCommands: [])
        try await FallbackUserAgent(primary: browser, fallback: PrintingUserAgent(write: { printed.append($0) }))
            .open(url)
        #expect(printed.text.isEmpty)
    }
}

/// Collects what a ``PrintingUserAgent`` writes.
final class PrintedText: Sendable {
    private let storage = Synchronization.Mutex("")
    var text: String { storage.withLock { $0 } }
    func append(_ text: String) { storage.withLock { $0 += text } }
}
