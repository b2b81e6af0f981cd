import ArgumentParser
import WOPIClient
import WOPIModels

/// `wopi mv PATH NEWNAME`: renames a file or folder in place (WOPI cannot move between folders).
struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mv",
        abstract: "Rename a file or folder in its folder (a file keeps its extension; WOPI has no move).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The file or folder.") var path: String
    @Argument(help: "The new name (no path).") var newName: String

    func validate() throws {
        guard !newName.contains("/") else {
            throw ValidationError("NEWNAME is a name, not a path: WOPI cannot move items between folders.")
        }
    }

    func run() async throws {
        try await Connection.with(options) { connection in
            let client = connection.client
            let source = RemotePath(path)
            let name: String
            switch try await connection.resolve(source) {
            case .container(let container, let parent):
                guard parent != nil else { throw CLIFailure(.usage, "The root folder cannot be renamed.") }
                name = try await client.renameContainer(container.resource, to: newName)
            case .file(let file, _):
                let old = FileNameRules.split(file.name)
                let new = FileNameRules.split(newName)
                let base: String
                if new.extension == nil || new.extension == old.extension {
                    base = new.extension == nil && old.extension == nil ? newName : new.base
                } else {
                    throw CLIFailure(
                        .usage, "WOPI cannot change a file's extension (.\(old.extension ?? "")); keep it in NEWNAME.")
                }
                let renamed = try await client.renameFile(
                    file.resource, toBaseName: base, lock: try connection.savedLock(file))
                name = FileNameRules.join(base: renamed, extension: old.extension)
            }
            let destination = RemotePath((source.parent.segments + [name]).joined(separator: "/"))
            if options.json {
                try Console.json(["from": source.description, "to": destination.description])
            } else {
                Console.line("\(source) → \(destination)")
            }
        }
    }
}
