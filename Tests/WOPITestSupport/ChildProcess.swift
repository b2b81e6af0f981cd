public import Foundation

/// Runs an executable as a child process without blocking a thread while it runs, so a test on Swift's small
/// cooperative pool never starves the tasks (a FUSE mount's replies, a host's handlers) the child may need.
/// Output goes to temporary files: pipe EOF notifications are unreliable on Linux.
public enum ChildProcess {
    /// An executable of this package (`wopi-host`, `wopi`), built next to the running test bundle.
    public static func built(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// How a child process ended and what it printed.
    public struct Result: Sendable {
        /// The exit status (the signal number if it was killed).
        public var status: Int32
        /// Its standard output.
        public var output: String
        /// Its standard error.
        public var error: String
    }

    /// Runs `executable arguments…` with `environment` added to this process's and `input` on its standard
    /// input, and waits (asynchronously, up to `timeout`, then kills it and throws).
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outURL = directory.appending("out")
        let errURL = directory.appending("err")
        let inURL = directory.appending("in")
        for url in [outURL, errURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((input ?? "").utf8))
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let inHandle = try FileHandle(forReadingFrom: inURL)
        defer {
            try? out.close()
            try? err.close()
            try? inHandle.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : inHandle
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
