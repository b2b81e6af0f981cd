import Foundation
import Synchronization

/// The real `wopi-host` executable, run as a child process for end-to-end tests.
final class HostProcess: Sendable {
    /// The built `wopi-host` next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("wopi-host")
    }

    let process: Process
    let dataDirectory: URL
    private let output = OutputBuffer()

    /// Starts `wopi-host serve --port 0` on `dataDirectory` and waits for its `listening on` line.
    init(dataDirectory: URL, extraArguments: [String] = []) throws {
        self.dataDirectory = dataDirectory
        process = Process()
        process.executableURL = Self.executable
        process.arguments =
            ["serve", "--data", dataDirectory.path, "--port", "0", "--log-level", "warning"]
            + extraArguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let handle = pipe.fileHandleForReading
        handle.readabilityHandler = { [output] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil; return }
            output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    /// Everything the process printed so far.
    var printed: String { output.text.withLock { $0 } }

    /// Waits (up to `timeout`) for `listening on URL` and returns the URL.
    func waitUntilListening(timeout: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                return String(line.dropFirst("listening on ".count))
            }
            guard process.isRunning else { throw HostProcessError("wopi-host exited early:\n\(printed)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HostProcessError("wopi-host did not start within \(timeout):\n\(printed)")
    }

    /// Sends `signal` and waits for the process to exit; returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) async -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        return process.terminationStatus
    }

    /// Runs another `wopi-host` subcommand to completion and returns its standard output.
    static func run(_ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let inPipe = Pipe()
        process.standardOutput = out
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw HostProcessError(
                "wopi-host \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)")
        }
        return text
    }
}

/// What a child process printed, shared with its pipe's reader.
final class OutputBuffer: Sendable {
    let text = Mutex("")
}

struct HostProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("wopikit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}
