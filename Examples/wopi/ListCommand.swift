import ArgumentParser
import Foundation
import WOPIClient

/// `wopi ls [PATH]`: lists a folder.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List a folder (default: the root).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The folder, e.g. Documents; default: the root.") var path = "/"
    @Option(name: .long, help: "Only files with these extensions, comma-separated, e.g. .docx,.xlsx.")
    var filter: String?

    func run() async throws {
        try await Connection.with(options) { connection in
            let target = RemotePath(path)
            let item = try await connection.resolve(target)
            switch item {
            case .file(let file, _):
                try print([ItemOutput(file: file)])
            case .container(let container, _):
                let extensions = filter?.split(separator: ",").map { String($0) }
                let children = try await connection.client.enumerateChildren(
                    of: container.resource, extensions: extensions)
                try print(
                    children.containers.map(ItemOutput.init(container:)) + children.files.map(ItemOutput.init(file:)))
            }
        }
    }

    private func print(_ items: [ItemOutput]) throws {
        if options.json {
            try Console.json(items)
            return
        }
        for item in items {
            if item.kind == "folder" {
                Console.line(
                    String(repeating: " ", count: 12) + "  " + String(repeating: " ", count: 19) + "  " + item.name
                        + "/")
            } else {
                let size = String(item.size ?? 0)
                let date = item.lastModified.map { Self.format($0) } ?? String(repeating: " ", count: 19)
                Console.line(
                    String(repeating: " ", count: max(0, 12 - size.count)) + size + "  " + date + "  " + item.name)
            }
        }
    }

    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }
}
