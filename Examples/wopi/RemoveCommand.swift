import ArgumentParser
import WOPIClient

/// `wopi rm PATH`: deletes a file or an empty folder.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a file or an empty folder.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The file or folder.") var path: String

    func run() async throws {
        try await Connection.with(options) { connection in
            let target = RemotePath(path)
            switch try await connection.resolve(target) {
            case .container(let container, let parent):
                guard parent != nil else { throw CLIFailure(.usage, "The root folder cannot be deleted.") }
                try await connection.client.deleteContainer(container.resource)
            case .file(let file, _):
                try await connection.client.deleteFile(file.resource)
                try connection.saveLock(nil, for: file)
            }
            if options.json {
                try Console.json(["deleted": target.description])
            } else {
                Console.line("deleted \(target)")
            }
        }
    }
}
