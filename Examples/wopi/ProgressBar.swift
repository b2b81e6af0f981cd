import Foundation
import Synchronization
import WOPIClient

/// A one-line progress bar on standard error, redrawn at most ten times a second.
final class ProgressBar: Sendable {
    private let label: String
    private let lastDraw = Mutex<ContinuousClock.Instant?>(nil)

    init(label: String) { self.label = label }

    /// A progress callback that draws this bar, or `nil` when it should not be shown.
    static func callback(label: String, enabled: Bool) -> TransferProgress? {
        guard enabled, Console.isTerminal else { return nil }
        let bar = ProgressBar(label: label)
        return { done, total in bar.draw(done, total) }
    }

    private func draw(_ done: Int64, _ total: Int64?) {
        let finished = total.map { done >= $0 } ?? false
        let now = ContinuousClock.now
        let due = lastDraw.withLock { last in
            if !finished, let previous = last, now - previous < .milliseconds(100) { return false }
            last = now
            return true
        }
        guard due else { return }
        var line = "\r\(label) "
        if let total, total > 0 {
            let fraction = Double(done) / Double(total)
            let filled = Int(fraction * 30)
            line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] "
            line += String(format: "%3.0f%% ", fraction * 100)
        }
        line += Self.bytes(done) + (total.map { " / " + Self.bytes($0) } ?? "")
        Console.status(line + (finished ? "\n" : ""))
    }

    static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KiB", Double(count) / 1024) }
        return String(format: "%.1f MiB", Double(count) / 1024 / 1024)
    }
}
