import ArgumentParser
import Foundation
import NIOCore
import WOPIClient
import WOPIStorage

/// `wopi get PATH [LOCAL]`: downloads a file, streaming.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Download a file (to LOCAL, default: its name here; - for standard output).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The file on the host.") var path: String
    @Argument(help: "Where to write it; - writes to standard output.") var local: String?

    func run() async throws {
        try await Connection.with(options) { connection in
            let file = try await connection.file(RemotePath(path))
            let toStandardOutput = local == "-"
            let progress = ProgressBar.callback(label: file.name, enabled: !toStandardOutput && !options.json)
            if toStandardOutput {
                let download = try await connection.client.getFile(file.resource, progress: progress)
                for try await chunk in download.body {
                    FileHandle.standardOutput.write(Data(chunk.readableBytesView))
                }
                return
            }
            let destination = URL(fileURLWithPath: local ?? file.name)
            let partial = destination.deletingLastPathComponent()
                .appendingPathComponent(".\(destination.lastPathComponent).wopi-partial")
            let figures: TransferFigures
            do {
                figures = try await connection.client.download(
                    file.resource, to: partial, cache: TransferCache.open(place: connection.place.name),
                    progress: progress)
                _ = try? FileManager.default.removeItem(at: destination)
                try FileManager.default.moveItem(at: partial, to: destination)
            } catch let error as WOPIClientError {
                try? FileManager.default.removeItem(at: partial)
                throw error
            } catch {
                try? FileManager.default.removeItem(at: partial)
                throw CLIFailure(.other, "Could not write \(destination.path): \(error)")
            }
            if options.json {
                try Console.json(
                    TransferOutput(
                        path: RemotePath(path).description, local: destination.path, bytes: figures.fileBytes,
                        version: nil, transfer: figures))
            } else {
                Console.error("\(file.name) → \(destination.path): \(TransferCache.summary(figures, verb: "received"))")
            }
        }
    }
}

/// What `get` and `put` print with `--json`.
struct TransferOutput: Encodable {
    var path: String
    var local: String
    var bytes: Int64
    var version: String?
    var created: Bool?
    /// What crossed the wire: `wireBytes` of `fileBytes`, chunks, whether incremental transfer was used.
    var transfer: TransferFigures?
}
