import Foundation
import WOPITestSupport

/// The built `wopi` tool, run as a child process without blocking a thread while it runs.
enum WopiProcess {
    typealias Result = ChildProcess.Result

    static var executable: URL {
        ChildProcess.built("wopi")
    }

    /// Runs `executable arguments…` with `environment` added to this process's, and waits (asynchronously).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], executable: URL = WopiProcess.executable,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        try await ChildProcess.run(executable, arguments, environment: environment, timeout: timeout)
    }
}
