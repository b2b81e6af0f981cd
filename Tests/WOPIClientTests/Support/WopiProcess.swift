import Foundation

/// The built `wopi` tool (or another executable), run as a child process without blocking a thread while it
/// runs. Output goes to temporary files (pipe EOF notifications are unreliable on Linux).
enum WopiProcess {
    struct Result: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("wopi")
    }

    /// Runs `executable arguments…` with `environment` added to this process's, and waits (asynchronously).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], executable: URL = WopiProcess.executable,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outURL = directory.url.appendingPathComponent("out")
        let errURL = directory.url.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcesses.register(process.processIdentifier)
        defer { ChildProcesses.unregister(process.processIdentifier) }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                kill(process.processIdentifier, SIGKILL)
                throw HostProcessError(
                    "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) did not finish within "
                        + "\(timeout); it printed: \(read(outURL)) \(read(errURL))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return Result(status: process.terminationStatus, output: read(outURL), error: read(errURL))
    }

    private static func read(_ url: URL) -> String {
        (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }
}
