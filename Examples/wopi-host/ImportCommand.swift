import ArgumentParser
import Foundation
import WOPIDeployment
import WOPIServer
import WOPIStorage

/// `wopi-host import --user NAME LOCAL_FILE [DEST_PATH]`: copies a local file into a user's files.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Put a local file into a user's files (folders are created as needed).")

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The user who receives the file.") var user: String
    @Flag(name: .long, help: "Replace an existing file at DEST_PATH.") var overwrite = false
    @Argument(help: "The local file.") var localFile: String
    @Argument(help: "Where it goes below the user's root, e.g. Reports/Q4.xlsx (default: the file's name).")
    var destPath: String?

    func run() async throws {
        let directory = try await data.open()
        let stores = try await directory.stores()
        guard let owner = try await stores.users.user(user) else {
            throw ValidationFailure("No user \(user); add one with `wopi-host user add \(user) --password-stdin`.")
        }
        let source = URL(fileURLWithPath: localFile)
        let target = destPath ?? source.lastPathComponent
        var segments = target.split(separator: "/").map(String.init)
        guard let name = segments.popLast() else { throw ValidationFailure("DEST_PATH needs a file name.") }
        // Through the host's door, as an upload from the user would go: the policy and every change guard decide.
        let host = try await ExampleDecisions.host(stores, directory)
        let root = try await stores.storage.rootContainer(forUser: user).id
        let folder = try await host.createFolders(atPath: segments.joined(separator: "/"), under: root, for: owner)
        let file = try await SaveContext.$current.withValue(SaveContext(userID: user, path: .commandLine)) {
            try await host.createFile(
                named: name, in: folder.id, content: try .contentsOfFile(at: source), replacing: overwrite, for: owner)
        }
        print("imported \(target) (\(file.size) bytes, id \(file.id))")
    }
}
