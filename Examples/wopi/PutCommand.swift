import ArgumentParser
import Foundation
import WOPIClient
import WOPIStorage

/// `wopi put LOCAL PATH`: uploads a file, creating it when missing: lock, PutFile, unlock.
struct PutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Upload a local file to PATH (a file, or a folder to put it in); creates it when missing.",
        discussion: """
            The file is locked for the upload and unlocked after, unless you hold a lock on it from `wopi lock`, \
            which is then used and kept.
            """)

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The local file.") var local: String
    @Argument(help: "The file on the host, or a folder to upload into.") var path: String

    func run() async throws {
        let source = URL(fileURLWithPath: local)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { throw CLIFailure(.usage, "\(local) is not a readable local file.") }
        try await Connection.with(options) { connection in
            var target = RemotePath(path)
            var existing = try await connection.resolveIfPresent(target)
            if case .container = existing {
                target = RemotePath(target.segments.joined(separator: "/") + "/" + source.lastPathComponent)
                existing = try await connection.resolveIfPresent(target)
            }
            let client = connection.client
            let file: WOPIFilePointer
            var created = false
            switch existing {
            case .file(let found, _)?:
                file = found
            case .container?:
                throw CLIFailure(.conflict, "\(target) is a folder; choose another name.")
            case nil:
                guard let name = target.name else { throw CLIFailure(.usage, "Give a file name to upload to.") }
                let parent = try await connection.container(target.parent)
                file = try await client.createChildFile(in: parent.resource, name: .exact(name))
                created = true
            }
            let saved = try connection.savedLock(file)
            let lockID = saved ?? "wopi-cli-\(UUID().uuidString.lowercased())"
            if saved == nil { try await client.lock(file.resource, lockID: lockID) }
            let figures: TransferFigures
            do {
                let progress = ProgressBar.callback(label: file.name, enabled: !options.json)
                figures = try await client.upload(
                    source, to: file.resource, lock: .wopi(lockID),
                    cache: TransferCache.open(place: connection.place.name), progress: progress)
            } catch {
                if saved == nil { _ = try? await client.unlock(file.resource, lockID: lockID) }
                if created { try? await client.deleteFile(file.resource) }
                throw error
            }
            var version: String?
            if saved == nil { version = try await client.unlock(file.resource, lockID: lockID) }
            if options.json {
                try Console.json(
                    TransferOutput(
                        path: target.description, local: source.path, bytes: figures.fileBytes, version: version,
                        created: created, transfer: figures))
            } else {
                Console.error(
                    "\(source.path) → \(target) (\(created ? "created" : "replaced")): "
                        + TransferCache.summary(figures, verb: "sent"))
            }
        }
    }
}
