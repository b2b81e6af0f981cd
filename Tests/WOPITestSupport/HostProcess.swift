public import Foundation

/// The real `wopi-host` executable (or another server that prints `listening on URL`), run as a child process
/// for end-to-end tests and benchmarks.
public final class HostProcess: Sendable {
    /// The built `wopi-host` next to the running test bundle or executable.
    public static var executable: URL { ChildProcess.built("wopi-host") }

    /// The child process.
    public let process: Process
    /// The `--data` directory it serves.
    public let dataDirectory: URL
    private let output: ProcessOutput

    /// Starts `wopi-host serve --port 0` on `dataDirectory`, with `--demo` unless `demo` is false; call
    /// ``waitUntilListening(timeout:)`` next.
    public convenience init(dataDirectory: URL, demo: Bool = true, extraArguments: [String] = []) throws {
        try self.init(
            executable: Self.executable,
            arguments: ["serve"] + (demo ? ["--demo"] : []) + [
                "--data", dataDirectory.path, "--port", "0", "--log-level", "warning",
            ] + extraArguments,
            dataDirectory: dataDirectory)
    }

    /// Starts any server that prints `listening on URL` once ready (an independent implementation in an interop
    /// test, say) and keeps its data in `dataDirectory`, with `environment` added to this process's; call
    /// ``waitUntilListening(timeout:)`` next.
    public init(
        executable: URL, arguments: [String], dataDirectory: URL, environment: [String: String] = [:]
    ) throws {
        self.dataDirectory = dataDirectory
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        output = ProcessOutput(pipe)
        try process.run()
        ChildProcesses.register(process.processIdentifier)
    }

    /// The process ID, for `/proc/PID/status` and signals.
    public var pid: Int32 { process.processIdentifier }

    /// Everything the process printed so far.
    public var printed: String { output.printed }

    /// Waits (up to `timeout`) for `listening on URL` and returns the URL.
    public func waitUntilListening(timeout: Duration = Polling.patience) async throws -> String {
        let url = try await Polling.first(within: timeout) { () throws -> String? in
            if let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                return String(line.dropFirst("listening on ".count))
            }
            guard process.isRunning else { throw HostProcessError("wopi-host exited early:\n\(printed)") }
            return nil
        }
        if let url { return url }
        throw HostProcessError("wopi-host did not start within \(timeout):\n\(printed)")
    }

    /// Runs `body` with the host's URL once it listens, then stops the host and waits for it to exit, whether `body`
    /// returned or threw. A test removes its data directory only after that: a host that is stopping writes its
    /// stores one last time, and a directory removed under it is left half there.
    public func serving<T>(_ body: (String) async throws -> T) async throws -> T {
        do {
            let result = try await body(try await waitUntilListening())
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }

    /// Sends `signal` and waits for the process to exit; returns its exit status (the signal number if killed).
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) async -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        ChildProcesses.unregister(process.processIdentifier)
        return process.terminationStatus
    }

    /// Runs another `wopi-host` subcommand to completion, feeding it `input`, and returns its standard output.
    public static func run(_ arguments: [String], input: String? = nil) async throws -> String {
        let result = try await ChildProcess.run(executable, arguments, input: input)
        guard result.status == 0 else {
            throw HostProcessError(
                "wopi-host \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output)\(result.error)"
            )
        }
        return result.output
    }
}
