import Foundation
import Synchronization

/// The built `wopi` tool, run as a child process without blocking a thread while it runs.
enum WopiProcess {
    struct Result: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("wopi")
    }

    /// Runs `wopi arguments…` with `environment` added to this process's, and waits (asynchronously) for it.
    static func run(_ arguments: [String], environment: [String: String], timeout: Duration = .seconds(60))
        async throws -> Result
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Collected()
        let err = Collected()
        process.standardOutput = out.pipe
        process.standardError = err.pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcesses.register(process.processIdentifier)
        defer { ChildProcesses.unregister(process.processIdentifier) }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning || !out.finished || !err.finished {
            if ContinuousClock.now > deadline {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                throw HostProcessError("wopi \(arguments.joined(separator: " ")) did not finish within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return Result(status: process.terminationStatus, output: out.text, error: err.text)
    }

    /// A pipe whose output is gathered as it arrives.
    final class Collected: Sendable {
        final class State: Sendable {
            let value = Mutex((data: Data(), finished: false))
        }

        let pipe = Pipe()
        private let state = State()

        init() {
            pipe.fileHandleForReading.readabilityHandler = { [state] handle in
                let data = handle.availableData
                state.value.withLock { value in
                    if data.isEmpty {
                        value.finished = true
                        handle.readabilityHandler = nil
                    } else {
                        value.data.append(data)
                    }
                }
            }
        }

        var finished: Bool { state.value.withLock { $0.finished } }
        var text: String { state.value.withLock { String(decoding: $0.data, as: UTF8.self) } }
    }
}
