import ArgumentParser
import Foundation
import NIOCore
import WOPIDeployment
import WOPIServer
import WOPIStorage

/// `wopi-host versions --user U FILE [--json] [--get VERSION]`: lists a file's versions, or writes one to standard
/// output.
struct VersionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versions",
        abstract: "List the versions of a file of --user, newest first, or write one to standard output (--get).")

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The user who sees the file.") var user: String
    @Argument(help: "The file's path below the user's root, e.g. Projects/Plan.docx.") var path: String
    @Flag(name: .long, help: "Print the list as JSON.") var json = false
    @Option(name: .long, help: "Write the bytes of this version to standard output.") var get: String?

    func run() async throws {
        let (host, owner, file) = try await VersionedFile.open(path, of: user, data: data)
        if let get {
            let content = try await host.readVersion(get, of: file.id, for: owner)
            for try await buffer in content.body {
                FileHandle.standardOutput.write(Data(buffer.readableBytesView))
            }
            return
        }
        let versions = try await host.versions(of: file.id, for: owner)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            Console.line(String(decoding: try encoder.encode(versions), as: UTF8.self))
            return
        }
        for version in versions {
            let flags = [
                version.isCurrent ? "current" : nil, version.isKept ? "kept" : nil,
                version.save.isAutosave ? "autosave" : nil, version.save.isExitSave ? "exit save" : nil,
            ].compactMap { $0 }
            Console.line(
                "\(version.id)\t\(version.size) bytes\t\(version.savedAt.formatted(.iso8601))\t"
                    + "\(version.save.userID ?? "-")\t\(version.save.path.rawValue)"
                    + (flags.isEmpty ? "" : "\t" + flags.joined(separator: ", ")))
        }
    }
}

/// `wopi-host restore --user U FILE VERSION`: makes an earlier version the file's new current content.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore an earlier version of a file of --user as its new current version.",
        discussion: "Nothing is overwritten: the restore is a new version. A file open in an editor is refused.")

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The user who restores (needs write access).") var user: String
    @Argument(help: "The file's path below the user's root.") var path: String
    @Argument(help: "The version to restore, as `versions` lists it.") var version: String

    func run() async throws {
        let (host, owner, file) = try await VersionedFile.open(path, of: user, data: data)
        let restored = try await host.restoreVersion(version, of: file.id, for: owner)
        Console.line("\(path): version \(version) restored as version \(restored.version).")
    }
}

/// `wopi-host keep --user U FILE VERSION [--release]`: keeps a version by name, so retention never removes it.
struct KeepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keep", abstract: "Keep a version of a file of --user, so that retention never removes it.")

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The user who keeps it (needs write access).") var user: String
    @Argument(help: "The file's path below the user's root.") var path: String
    @Argument(help: "The version to keep, as `versions` lists it.") var version: String
    @Flag(name: .long, help: "Stop keeping it: retention applies again.") var release = false

    func run() async throws {
        let (host, owner, file) = try await VersionedFile.open(path, of: user, data: data)
        try await host.keepVersion(version, of: file.id, !release, for: owner)
        Console.line("\(path): version \(version) is \(release ? "no longer kept" : "kept").")
    }
}

/// A file of a user, and the host whose door the version commands go through.
enum VersionedFile {
    static func open(_ path: String, of user: String, data: DataOptions) async throws
        -> (WOPIHost, WOPIUser, FileMetadata)
    {
        let directory = try await data.open()
        let stores = try await directory.stores()
        guard let owner = try await stores.users.user(user) else { throw ValidationFailure("No user \(user).") }
        guard case .file(let file) = try await OwnedItem.resolve(path, of: user, in: stores) else {
            throw ValidationFailure("\(path) is a folder; versions are kept per file.")
        }
        return (try await ExampleDecisions.host(stores, directory), owner, file)
    }
}
