import Foundation
import NIOHTTP1
import Testing

/// A headless Chromium driven through chromedriver (WebDriver: HTTP + JSON), for tests of the real sign-in page.
///
/// ``with(_:)`` starts chromedriver on a free port, opens a headless session, runs the body, and always deletes
/// the session and stops chromedriver.
struct ChromeDriver: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let chromedriver = "/usr/bin/chromedriver"
    static let chromium = "/usr/bin/chromium"
    private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    let baseURL: String
    let session: String

    /// Runs `body` with a fresh headless browser session.
    static func with<T: Sendable>(_ body: @Sendable (ChromeDriver) async throws -> T) async throws -> T {
        for path in [chromedriver, chromium] where !FileManager.default.isExecutableFile(atPath: path) {
            throw Failure(
                description: "\(path) is missing: `make test` installs it (scripts/install-deps.sh --test installs "
                    + "the chromium and chromium-driver packages).")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromedriver)
        process.arguments = ["--port=0"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            // chromedriver may ignore SIGTERM while it winds down; the session (and so Chromium) is closed already.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let port = try await readPort(from: pipe.fileHandleForReading)
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
                                "--window-size=390,844",
                            ],
                        ],
                        "goog:loggingPrefs": ["browser": "ALL"],
                        "timeouts": ["pageLoad": 15_000, "implicit": 0],
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

    /// Reads chromedriver's "started successfully on port N" line (10 s at most).
    private static func readPort(from handle: FileHandle) async throws -> Int {
        let output = try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                var text = ""
                while !text.contains("started successfully on port") || !text.hasSuffix("\n") {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                return text
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                throw Failure(description: "chromedriver did not start within 10 s")
            }
            let first = try await group.next() ?? ""
            group.cancelAll()
            return first
        }
        guard let match = output.firstMatch(of: /successfully on port (\d+)/), let port = Int(match.1) else {
            throw Failure(description: "chromedriver did not report its port: \(output)")
        }
        return port
    }

    @discardableResult
    private static func call(_ baseURL: String, _ method: HTTPMethod, _ path: String, _ body: Any? = nil)
        async throws -> Any?
    {
        let payload = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let reply = try await Web.send(
            method, baseURL + path, headers: ["Content-Type": "application/json"],
            body: payload ?? (method == .POST ? "{}" : nil))
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

    func navigate(to url: String) async throws { try await command(.POST, "/url", ["url": url]) }

    func currentURL() async throws -> String { try await command(.GET, "/url") as? String ?? "" }

    func pageSource() async throws -> String { try await command(.GET, "/source") as? String ?? "" }

    /// The element matching a CSS selector.
    func element(_ selector: String) async throws -> String {
        let found = try await command(.POST, "/element", ["using": "css selector", "value": selector])
        guard let id = (found as? [String: Any])?[Self.elementKey] as? String else {
            throw Failure(description: "no element \(selector)")
        }
        return id
    }

    func type(_ text: String, into selector: String) async throws {
        try await command(.POST, "/element/\(try await element(selector))/value", ["text": text])
    }

    func click(_ selector: String) async throws {
        try await command(.POST, "/element/\(try await element(selector))/click")
    }

    /// Waits (10 s at most) until the current URL satisfies `condition`, and returns it.
    func waitForURL(_ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        var url = ""
        while ContinuousClock.now < deadline {
            url = try await currentURL()
            if condition(url) { return url }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "the browser stayed at \(url)")
    }

    /// The browser console entries since the last call (level and message).
    func consoleLog() async throws -> [(level: String, message: String)] {
        let entries = try await command(.POST, "/se/log", ["type": "browser"]) as? [[String: Any]] ?? []
        return entries.map { ($0["level"] as? String ?? "", $0["message"] as? String ?? "") }
    }
}
