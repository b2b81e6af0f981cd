import ArgumentParser
import WOPIClient

/// `wopi mkdir PATH`: creates a folder.
struct MkdirCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mkdir", abstract: "Create a folder.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The new folder, e.g. Documents/Reports.") var path: String

    func run() async throws {
        let target = RemotePath(path)
        guard let name = target.name else { throw CLIFailure(.usage, "Give the new folder's name.") }
        try await Connection.with(options) { connection in
            let parent = try await connection.container(target.parent)
            let created = try await connection.client.createChildContainer(in: parent.resource, name: .exact(name))
            if options.json {
                try Console.json(ItemOutput(container: created))
            } else {
                Console.line("created \(target)")
            }
        }
    }
}
