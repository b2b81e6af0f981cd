import Foundation
import Synchronization

/// A `wopi-host serve` child process on a fresh data directory, and the CLI commands run beside it.
final class BenchHost: Sendable {
    let executable: URL
    let dataDirectory: URL
    /// `--database URL` for the `postgres` storage, else empty.
    private let databaseArguments: [String]
    private let process = Process()
    private let output = PrintedOutput()

    /// Starts `wopi-host serve --port 0 --storage STORAGE` on a new data directory, with `extraArguments`; the
    /// `postgres` storage is `--database DATABASE` instead.
    init(executable: URL, storage: String, database: String?, extraArguments: [String] = []) throws {
        self.executable = executable
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("wopikit-bench-\(UUID())")
        if storage == "postgres" {
            guard let database else { throw BenchError("The postgres storage needs --database postgres://…") }
            databaseArguments = ["--database", database]
        } else {
            databaseArguments = []
        }
        process.executableURL = executable
        process.arguments =
            ["serve", "--demo", "--data", dataDirectory.path]
            + (databaseArguments.isEmpty ? ["--storage", storage] : databaseArguments)
            + ["--port", "0", "--log-level", "warning"] + extraArguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                return
            }
            output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits for `listening on URL` and returns the URL.
    func waitUntilListening() async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let printed = output.text.withLock { $0 }
            if let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                return String(line.dropFirst("listening on ".count))
            }
            guard process.isRunning else { throw BenchError("wopi-host exited early:\n\(printed)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BenchError("wopi-host did not start within a minute")
    }

    /// `wopi-host token` for a seeded file: its WOPISrc and access token.
    func token(file: String) throws -> (wopiSrc: String, accessToken: String) {
        let child = Process()
        child.executableURL = executable
        child.arguments =
            ["token", "--data", dataDirectory.path] + databaseArguments + ["--user", "demo", "--file", file]
        let out = Pipe()
        child.standardOutput = out
        try child.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard child.terminationStatus == 0, let wopiSrc = json?["wopiSrc"] as? String,
            let accessToken = json?["accessToken"] as? String
        else { throw BenchError("wopi-host token failed: \(String(decoding: data, as: UTF8.self))") }
        return (wopiSrc, accessToken)
    }

    /// Stops the host with SIGTERM and deletes its data directory.
    func stop() async {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        try? FileManager.default.removeItem(at: dataDirectory)
    }
}

/// What the child printed, shared with its pipe's reader.
private final class PrintedOutput: Sendable {
    let text = Mutex("")
}
