import ArgumentParser
import Foundation
import WOPIDeployment
import WOPIServer
import WOPIStorage

/// `wopi-host audit [--since WHEN] [--user NAME] [--file PATH|ID] [--json]`: reads the audit trail.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show the audit trail: sign-ins, token issues, opens, saves, shares, conflicts.",
        discussion: "Oldest first. Works while serve runs on the same folder.")

    @OptionGroup var data: DataOptions
    @Option(
        name: .long, help: "Events since an ISO 8601 date (2026-11-27T10:00:00Z) or for a while back (90m, 12h, 7d).")
    var since: String?
    @Option(name: .long, help: "Events of this user (their ID).") var user: String?
    @Option(name: .long, help: "Events about this item: its ID, or its path below --user's root.") var file: String?
    @Flag(name: .long, help: "One JSON object a line, as the log keeps them.") var json = false

    func validate() throws { _ = try sinceDate(now: Date()) }

    func run() async throws {
        let stores = try await data.open().stores()
        guard let audit = stores.audit else { throw ValidationFailure("These stores keep no audit trail.") }
        var itemID = file
        if let file, let user, file.contains("/") || ItemID(rawValue: file) == nil {
            itemID = try await OwnedItem.resolve(file, of: user, in: stores).id.rawValue
        }
        let events = try await audit.events(
            matching: AuditQuery(since: try sinceDate(now: Date()), userID: user, itemID: itemID))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        for event in events {
            if json {
                Console.line(String(decoding: try encoder.encode(event), as: UTF8.self))
            } else {
                Console.line(Self.line(event))
            }
        }
    }

    /// One event as a line: date, action, user, item, address, details.
    static func line(_ event: AuditEvent) -> String {
        let details = event.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return [
            ISO8601DateFormatter().string(from: event.date), event.action.rawValue, event.userID ?? "-",
            event.itemID ?? "-", event.address ?? "-", details,
        ].joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }

    /// `--since` as a date: an ISO 8601 date, or a count of minutes, hours or days before `now`.
    private func sinceDate(now: Date) throws -> Date? {
        guard let since else { return nil }
        if let date = ISO8601DateFormatter().date(from: since) { return date }
        let units: [Character: Double] = ["m": 60, "h": 3600, "d": 86400]
        guard let unit = since.last.flatMap({ units[$0] }), let count = Double(since.dropLast()), count >= 0 else {
            throw ValidationError("--since takes an ISO 8601 date or a duration such as 90m, 12h or 7d.")
        }
        return now.addingTimeInterval(-count * unit)
    }
}
