import ArgumentParser
import Foundation
import WOPIStorage

/// `wopi-host retention [--keep-last N | --keep-all] [--keep-days D | --forever] [--autosave-grace S]`: prints or sets
/// which versions of a file the data directory keeps (Docs/versions.md, "Retention and coalescing").
struct RetentionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract: "Print, or set, which versions of each file this data directory keeps.",
        discussion: """
            Without options, prints the retention. A version goes as soon as one rule lets it go; the current version \
            and kept versions (wopi-host keep) always stay. Every process on the directory reads the setting when it \
            starts: restart `serve` after a change. With --database, set the same retention in every host's --data \
            folder. Garbage collection (hourly) removes the versions a new rule lets go.
            """)

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "Keep the newest N versions, the current one included (N ≥ 1).") var keepLast: Int?
    @Flag(name: .long, help: "No limit on the number of versions.") var keepAll = false
    @Option(name: .long, help: "Keep versions for D days.") var keepDays: Double?
    @Flag(name: .long, help: "No limit on the age of versions.") var forever = false
    @Option(
        name: .long, help: "Seconds within which an autosave replaces the same user's previous autosave (0: never).")
    var autosaveGrace: Double?

    func validate() throws {
        if keepLast != nil, keepAll { throw ValidationError("Give --keep-last or --keep-all, not both.") }
        if keepDays != nil, forever { throw ValidationError("Give --keep-days or --forever, not both.") }
        if let keepLast, keepLast < 1 { throw ValidationError("--keep-last must be at least 1 (the current version).") }
        if let keepDays, !(keepDays > 0) { throw ValidationError("--keep-days must be more than 0.") }
        if let autosaveGrace, !(autosaveGrace >= 0) { throw ValidationError("--autosave-grace must be 0 or more.") }
    }

    func run() async throws {
        let directory = try await data.open()
        var retention = directory.versionRetention
        let changes = keepLast != nil || keepAll || keepDays != nil || forever || autosaveGrace != nil
        if changes {
            if keepAll { retention.keepLast = nil } else if let keepLast { retention.keepLast = keepLast }
            if forever { retention.keepFor = nil } else if let keepDays { retention.keepFor = keepDays * 86_400 }
            if let autosaveGrace { retention.autosaveGracePeriod = autosaveGrace }
            var settings = directory.settings
            settings.versions = DataDirectory.VersionSettings(retention)
            try directory.save(settings)
        }
        let last = retention.keepLast.map { "the newest \($0)" } ?? "every version"
        let days = retention.keepFor.map { "for \(($0 / 86_400).formatted()) days" } ?? "with no age limit"
        Console.line(
            "\(changes ? "Now keeps" : "Keeps") \(last), \(days); autosaves within "
                + "\(retention.autosaveGracePeriod.formatted()) s of the same user's replace each other.")
    }
}
