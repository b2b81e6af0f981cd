import Foundation
import Testing
import WOPITestSupport

/// The example host's data directory is private: folders 0700, files 0600, after `serve` and after each command,
/// and an existing deployment that is readable by others is fixed, with a warning.
@Suite(.serialized) struct DataDirectoryPrivacyTests {
    /// Every folder and file below `root` (itself included) whose mode is not 0700 / 0600, as "path mode".
    static func notPrivate(_ root: URL) throws -> [String] {
        var wrong: [String] = []
        func visit(_ path: String) throws {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? Int) ?? -1
            let isDirectory = attributes[.type] as? FileAttributeType == .typeDirectory
            if mode != (isDirectory ? 0o700 : 0o600) { wrong.append("\(path) \(String(mode, radix: 8))") }
            if isDirectory {
                for name in try FileManager.default.contentsOfDirectory(atPath: path) { try visit(path + "/" + name) }
            }
        }
        try visit(root.path)
        return wrong
    }

    @Test(arguments: ["sqlite", "fs"])
    func everythingIsPrivateAfterServeAndEachCommand(storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.appending("data")
        let host = try HostProcess(dataDirectory: data, extraArguments: ["--storage", storage])
        _ = try await host.waitUntilListening()
        if storage == "sqlite" {
            for file in ["wopi.sqlite", "wopi.sqlite-wal", "wopi.sqlite-shm"] {
                #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent(file).path), "\(file)")
            }
        }
        #expect(try Self.notPrivate(data) == [], "after serve started")
        let local = directory.appending("plan.txt")
        try Data("plan".utf8).write(to: local)
        let commands: [([String], String?)] = [
            (["user", "add", "ana", "--password-stdin"], "s3cret\n"),
            (["user", "list"], nil),
            (["client", "add", "app", "--public", "--redirect-uri", "http://127.0.0.1/cb"], nil),
            (["client", "list"], nil),
            (["import", "--user", "ana", local.path, "Work/.plan #1.txt"], nil),
            (["token", "--user", "ana", "--file", "Work/.plan #1.txt"], nil),
        ]
        for (arguments, input) in commands {
            _ = try await HostProcess.run(arguments + ["--data", data.path], input: input)
            #expect(try Self.notPrivate(data) == [], "after \(arguments.prefix(2).joined(separator: " "))")
        }
        #expect(await host.stop(signal: SIGTERM) == 0)
        #expect(try Self.notPrivate(data) == [], "after serve stopped")
    }

    @Test func anExistingDeploymentReadableByOthersIsFixedWithAWarning() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.appending("data")
        _ = try await HostProcess.run(["user", "add", "ana", "--data", data.path, "--password-stdin"], input: "pw\n")
        // As an earlier version left it: 0755 folders, 0644 files.
        let chmod = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/chmod"), ["-R", "u=rwX,go=rX", data.path])
        try #require(chmod.status == 0)
        try #require(try Self.notPrivate(data).count >= 3)
        let listed = try await ChildProcess.run(HostProcess.executable, ["user", "list", "--data", data.path])
        #expect(listed.status == 0 && listed.output.contains("ana"))
        #expect(listed.error.contains("made") && listed.error.contains("private"), "warning: \(listed.error)")
        #expect(try Self.notPrivate(data) == [])
        let again = try await ChildProcess.run(HostProcess.executable, ["user", "list", "--data", data.path])
        #expect(!again.error.contains("private"), "no warning once private: \(again.error)")
    }
}
