import ArgumentParser
import Foundation
import WOPIDeployment
import WOPIStorage

/// `wopi-host quota [--mib N | --none] [--user U]`: prints or sets how many bytes each user's files may take, every
/// kept version included (Docs/versions.md, "Quota").
struct QuotaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quota",
        abstract: "Print, or set, how much each user's files may take, earlier versions included.",
        discussion: """
            Without options, prints the quota. A save that would take the owner's files past it is refused with 413 \
            and what to do; deleting files or earlier versions frees room. Every process on the directory reads the \
            setting when it starts: restart `serve` after a change. With --user, also prints what that user's files \
            take now.
            """)

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "Let each user's files take N MiB (N > 0).") var mib: Double?
    @Flag(name: .long, help: "No quota.") var none = false
    @Option(name: .long, help: "Print what this user's files take.") var user: String?

    func validate() throws {
        if mib != nil, none { throw ValidationError("Give --mib or --none, not both.") }
        if let mib, !(mib > 0) { throw ValidationError("--mib must be more than 0.") }
    }

    func run() async throws {
        let directory = try await data.open()
        let changed = mib != nil || none
        var quota = directory.storageQuota
        if changed {
            quota = mib.map { Int64($0 * 1_048_576) }
            var settings = directory.settings
            settings.quotaBytes = quota
            try directory.save(settings)
        }
        Console.line(
            quota.map { "\(changed ? "Now each" : "Each") user's files may take \($0) bytes." }
                ?? "\(changed ? "Now there is" : "There is") no storage quota.")
        if let user {
            guard let usage = try await directory.stores().storage as? any StorageUsage else {
                throw ValidationFailure("This storage cannot count a user's bytes.")
            }
            Console.line("\(user)'s files take \(try await usage.storedBytes(ownedBy: user)) bytes.")
        }
    }
}
