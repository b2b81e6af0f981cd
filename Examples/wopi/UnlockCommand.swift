import ArgumentParser
import Foundation
import WOPIClient

/// `wopi unlock PATH`: releases the lock `wopi lock` took (or the given one).
struct UnlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unlock", abstract: "Unlock a file.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The file.") var path: String
    @Option(name: .long, parsing: .unconditional, help: "The lock ID; default: the one `wopi lock` took.")
    var lockID: String?

    func run() async throws {
        try await Connection.with(options) { connection in
            let file = try await connection.file(RemotePath(path))
            guard let id = try lockID ?? connection.savedLock(file) else {
                throw CLIFailure(.usage, "No lock of yours is known on \(RemotePath(path)); pass --lock-id.")
            }
            try await connection.client.unlock(file.resource, lockID: id)
            try connection.saveLock(nil, for: file)
            if options.json {
                try Console.json(["path": RemotePath(path).description, "unlocked": id])
            } else {
                Console.line("unlocked \(RemotePath(path))")
            }
        }
    }
}
