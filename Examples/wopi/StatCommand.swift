import ArgumentParser
import Foundation
import WOPIClient
import WOPIModels

/// `wopi stat PATH`: what the host says about a file (CheckFileInfo, GetLock) or a folder (CheckContainerInfo).
struct StatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stat", abstract: "Show a file's or folder's details.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The file or folder.") var path: String

    func run() async throws {
        try await Connection.with(options) { connection in
            var output: ItemOutput
            switch try await connection.resolve(RemotePath(path)) {
            case .container(let container, _):
                output = ItemOutput(container: container)
                output.name = try await connection.client.checkContainerInfo(container.resource).name
            case .file(let file, _):
                let info = try await connection.client.checkFileInfo(file.resource)
                output = ItemOutput(file: file)
                output.name = info.baseFileName
                output.size = info.size
                output.version = info.version
                output.lastModified = info.lastModifiedTime.flatMap(WOPIJSON.date(from:))
                output.sha256 = info.sha256
                if info.supportsGetLock == true {
                    output.lock = try await connection.client.getLock(file.resource)
                }
            }
            if options.json {
                try Console.json(output)
            } else {
                Console.line("name:     \(output.name)")
                Console.line("kind:     \(output.kind)")
                if let id = output.id { Console.line("id:       \(id)") }
                if let size = output.size { Console.line("size:     \(size)") }
                if let version = output.version { Console.line("version:  \(version)") }
                if let date = output.lastModified { Console.line("modified: \(ListCommand.format(date))") }
                if let sha = output.sha256 { Console.line("sha256:   \(sha)") }
                if let lock = output.lock { Console.line("lock:     \(lock.isEmpty ? "(unlocked)" : lock)") }
                if let src = output.wopiSrc { Console.line("wopiSrc:  \(src)") }
            }
        }
    }
}
