public import Foundation
import Synchronization

/// An ``ExternalUserAgent`` that opens the system's browser: the `$BROWSER` command lines first, then `xdg-open` on
/// Linux or `open` on macOS.
///
/// `$BROWSER` is a `:`-separated list of command lines, tried in order. In each, `%s` is replaced by the URL;
/// without `%s` the URL is added as the last argument. Words may be quoted with `'` or `"`. Commands run through
/// `/usr/bin/env` with the URL as a separate argument, never through a shell. A command that exits non-zero (or
/// cannot be found) moves on to the next; one that is still running after ``launchGracePeriod`` counts as opened.
public struct SystemBrowser: ExternalUserAgent {
    /// The environment whose `BROWSER` is read.
    public var environment: [String: String]
    /// The command lines tried after `$BROWSER`; the URL is added as the last argument.
    public var fallbackCommands: [[String]]
    /// How long a command may run before it counts as a browser that stays open.
    public var launchGracePeriod: Duration
    /// The clock that measures ``launchGracePeriod``; tests pass one they move forward by hand.
    public var clock: any Clock<Duration>

    /// Creates a browser launcher.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        fallbackCommands: [[String]] = SystemBrowser.platformCommands, launchGracePeriod: Duration = .seconds(2),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.environment = environment
        self.fallbackCommands = fallbackCommands
        self.launchGracePeriod = launchGracePeriod
        self.clock = clock
    }

    /// The platform's own opener: `open` on macOS, `xdg-open` elsewhere.
    public static var platformCommands: [[String]] {
        #if os(macOS)
            [["open"]]
        #else
            [["xdg-open"]]
        #endif
    }

    /// The command lines that ``open(_:)`` tries for `url`, in order.
    public func commandLines(for url: URL) -> [[String]] {
        let link = url.absoluteString
        var lines: [[String]] = []
        if let browser = environment["BROWSER"] {
            for entry in browser.split(separator: ":") {
                let words = Self.splitWords(entry)
                guard !words.isEmpty else { continue }
                if words.contains(where: { $0.contains("%s") }) {
                    lines.append(words.map { $0.replacingOccurrences(of: "%s", with: link) })
                } else {
                    lines.append(words + [link])
                }
            }
        }
        lines += fallbackCommands.filter { !$0.isEmpty }.map { $0 + [link] }
        return lines
    }

    /// Tries each command line of ``commandLines(for:)`` until one opens the URL.
    ///
    /// - Throws: ``OAuthError/Code/userAgentFailed`` when none does.
    public func open(_ url: URL) async throws {
        var failures: [String] = []
        for words in commandLines(for: url) {
            switch await Self.run(words, gracePeriod: launchGracePeriod, clock: clock) {
            case .opened:
                return
            case .failed(let reason):
                failures.append("\(words[0]): \(reason)")
            }
        }
        throw OAuthError(
            .userAgentFailed,
            "Could not open a browser (\(failures.isEmpty ? "no command configured" : failures.joined(separator: "; ")))"
                + "; set BROWSER, or open the URL by hand.")
    }

    private enum Outcome: Sendable {
        case opened
        case failed(String)
    }

    private static func run(_ words: [String], gracePeriod: Duration, clock: any Clock<Duration>) async -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = words
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            process.terminationHandler = { finished in
                let status = finished.terminationStatus
                once.resume(status == 0 ? .opened : .failed("exit status \(status)"))
            }
            do {
                try process.run()
            } catch {
                once.resume(.failed("\(error)"))
                return
            }
            Task {
                try? await clock.sleep(for: gracePeriod)
                once.resume(.opened)
            }
        }
    }

    /// Resumes a continuation at most once.
    private final class ResumeOnce: Sendable {
        private let continuation: Mutex<CheckedContinuation<Outcome, Never>?>
        init(_ continuation: CheckedContinuation<Outcome, Never>) { self.continuation = Mutex(continuation) }
        func resume(_ outcome: Outcome) {
            continuation.withLock { $0.take() }?.resume(returning: outcome)
        }
    }

    /// Splits a command line into words, honouring `'…'`, `"…"` and backslash escapes (no other shell syntax).
    static func splitWords(_ line: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
