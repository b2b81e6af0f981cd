public import Foundation
import NIOCore
import NIOHTTP1

/// A headless Chromium driven through chromedriver (WebDriver: HTTP + JSON), for tests of real pages (the OAuth
/// sign-in page, the host pages that frame a WOPI client).
///
/// ``with(_:)`` starts chromedriver on a free port, opens a headless session, runs the body, and always deletes
/// the session and stops chromedriver.
public struct ChromeDriver: Sendable {
    /// A WebDriver failure or a condition that did not come true.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static let chromedriver = "/usr/bin/chromedriver"
    public static let chromium = "/usr/bin/chromium"
    private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// chromedriver's URL.
    public let baseURL: String
    /// The WebDriver session.
    public let session: String

    /// Runs `body` with a fresh headless browser session whose window is `windowSize` (a phone by default).
    public static func with<T: Sendable>(
        windowSize: String = "390,844", _ body: @Sendable (ChromeDriver) async throws -> T
    ) async throws -> T {
        for path in [chromedriver, chromium] where !FileManager.default.isExecutableFile(atPath: path) {
            throw Failure(
                description: "\(path) is missing: `make test` installs it (scripts/install-deps.sh --test installs "
                    + "the chromium and chromium-driver packages).")
        }
        // Chromium's profile and singleton folders go to a temporary directory of the test's own, removed at the
        // end: chromedriver leaves them in $TMPDIR when it is killed (a few MB per browser, on every run).
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let (process, port) = try await startChromedriver(in: scratch)
        defer {
            // chromedriver may ignore SIGTERM while it winds down; the session (and so Chromium) is closed already.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let baseURL = "http://127.0.0.1:\(port)"
        let created = try await call(
            baseURL, .POST, "/session",
            [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        "goog:chromeOptions": [
                            "binary": chromium,
                            "args": [
                                "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                                "--window-size=\(windowSize)",
                            ],
                        ],
                        "goog:loggingPrefs": ["browser": "ALL"],
                        "timeouts": ["pageLoad": 60_000, "implicit": 0],
                    ]
                ]
            ])
        guard let session = (created as? [String: Any])?["sessionId"] as? String else {
            throw Failure(description: "chromedriver did not create a session: \(String(describing: created))")
        }
        let driver = ChromeDriver(baseURL: baseURL, session: session)
        do {
            let result = try await body(driver)
            _ = try? await call(baseURL, .DELETE, "/session/\(session)")
            return result
        } catch {
            _ = try? await call(baseURL, .DELETE, "/session/\(session)")
            throw error
        }
    }

    /// Starts chromedriver on a port it picks, with `scratch` as its `TMPDIR` and log folder, and returns it and
    /// its port once it listens.
    ///
    /// In a full test run chromedriver now and then exits on start (status 1, right after its first line, with
    /// nothing said about why; one known cause: it binds the port it picked on IPv4 again on IPv6, and exits when
    /// that one is taken). An exit before listening is retried twice; the failure quotes each attempt and its log.
    private static func startChromedriver(in scratch: TemporaryDirectory) async throws -> (Process, Int) {
        var attempts: [String] = []
        for attempt in 1...3 {
            let log = scratch.appending("chromedriver-\(attempt).log")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: chromedriver)
            process.arguments = ["--port=0", "--log-path=\(log.path)"]
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch.url.path]) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            let output = ProcessOutput(pipe)
            try process.run()
            let port = try await Polling.first { () -> Int? in
                let printed = output.printed
                if let match = printed.firstMatch(of: /successfully on port (\d+)/) { return Int(match.1) ?? 0 }
                return process.isRunning ? nil : -1
            }
            if let port, port > 0 { return (process, port) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let logged = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(600)
            let failure =
                port == nil
                ? "did not start within \(Polling.patience): \(output.printed) \(logged)"
                : "exited (\(process.terminationStatus)): \(output.printed) \(logged)"
            attempts.append(failure)
            // Said in the test log, so how often chromedriver needs a second start stays visible.
            FileHandle.standardError.write(Data("chromedriver start \(attempt) of 3 failed: \(failure)\n".utf8))
        }
        throw Failure(description: "chromedriver failed to start 3 times: " + attempts.joined(separator: " | "))
    }

    @discardableResult
    private static func call(_ baseURL: String, _ method: HTTPMethod, _ path: String, _ body: Any? = nil)
        async throws -> Any?
    {
        let payload = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let reply = try await TestHTTP.send(
            method, baseURL + path, headers: [("Content-Type", "application/json")],
            body: (payload ?? (method == .POST ? "{}" : nil)).map(ByteBuffer.init))
        let json = try JSONSerialization.jsonObject(with: Data(reply.body.readableBytesView)) as? [String: Any]
        if reply.status >= 400 {
            throw Failure(description: "WebDriver \(method) \(path): \(reply.status) \(reply.text)")
        }
        return json?["value"]
    }

    @discardableResult
    private func command(_ method: HTTPMethod, _ path: String, _ body: Any? = nil) async throws -> Any? {
        try await Self.call(baseURL, method, "/session/\(session)" + path, body)
    }

    public func navigate(to url: String) async throws { try await command(.POST, "/url", ["url": url]) }

    public func currentURL() async throws -> String { try await command(.GET, "/url") as? String ?? "" }

    public func pageSource() async throws -> String { try await command(.GET, "/source") as? String ?? "" }

    /// The element matching a CSS selector.
    public func element(_ selector: String) async throws -> String {
        let found = try await command(.POST, "/element", ["using": "css selector", "value": selector])
        guard let id = (found as? [String: Any])?[Self.elementKey] as? String else {
            throw Failure(description: "no element \(selector)")
        }
        return id
    }

    public func type(_ text: String, into selector: String) async throws {
        try await command(.POST, "/element/\(try await element(selector))/value", ["text": text])
    }

    public func click(_ selector: String) async throws {
        try await command(.POST, "/element/\(try await element(selector))/click")
    }

    /// Waits (``Polling/patience`` at most) until the current URL satisfies `condition`, and returns it.
    public func waitForURL(_ condition: (String) -> Bool) async throws -> String {
        var url = ""
        let reached = try await Polling.first(every: .milliseconds(100)) {
            url = try await currentURL()
            return condition(url) ? url : nil
        }
        guard let reached else { throw Failure(description: "the browser stayed at \(url)") }
        return reached
    }

    /// Runs `script` (a function body; `arguments[0]`… are `arguments`) in the current frame and returns its result.
    @discardableResult
    public func execute(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command(.POST, "/execute/sync", ["script": script, "args": arguments])
    }

    /// Waits (``Polling/patience`` at most) until `script` returns `true` in the current frame.
    public func waitFor(_ script: String, _ what: String) async throws {
        guard try await Polling.until(every: .milliseconds(100), { try await execute(script) as? Bool == true }) else {
            throw Failure(description: "timed out waiting for \(what)")
        }
    }

    /// Makes the iframe matching a CSS selector the current frame.
    public func switchToFrame(_ selector: String) async throws {
        try await command(.POST, "/frame", ["id": [Self.elementKey: try await element(selector)]])
    }

    /// Makes the top-level page the current frame again.
    public func switchToTopFrame() async throws {
        try await command(.POST, "/frame", ["id": NSNull()])
    }

    /// A PNG of the window.
    public func screenshot() async throws -> Data {
        guard let base64 = try await command(.GET, "/screenshot") as? String, let data = Data(base64Encoded: base64)
        else { throw Failure(description: "WebDriver returned no screenshot") }
        return data
    }

    /// The browser console entries since the last call (level and message).
    public func consoleLog() async throws -> [(level: String, message: String)] {
        let entries = try await command(.POST, "/se/log", ["type": "browser"]) as? [[String: Any]] ?? []
        return entries.map { ($0["level"] as? String ?? "", $0["message"] as? String ?? "") }
    }
}
