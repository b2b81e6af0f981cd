import ArgumentParser
import Foundation
import WOPIClient

/// `wopi lock PATH`: takes a WOPI lock and remembers its ID for `put` and `unlock`.
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock", abstract: "Lock a file (30 minutes, renewed by locking again) and remember the lock ID.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The file.") var path: String
    @Option(
        name: .long, parsing: .unconditional, help: "The lock ID to use; default: the one held already, or a new one.")
    var lockID: String?

    func run() async throws {
        try await Connection.with(options) { connection in
            let file = try await connection.file(RemotePath(path))
            let id = try lockID ?? connection.savedLock(file) ?? "wopi-cli-\(UUID().uuidString.lowercased())"
            try await connection.client.lock(file.resource, lockID: id)
            try connection.saveLock(id, for: file)
            if options.json {
                try Console.json(["path": RemotePath(path).description, "lockID": id])
            } else {
                Console.line(id)
            }
        }
    }
}
