import Foundation
import Synchronization
import WOPITestSupport

/// One `wopi-host serve` process shared by the tests that need it (the `wopi` tool signing in to the example host),
/// started on first use and stopped when the last test holding it lets go (and, as a safety net, when the test
/// process exits).
actor ServedHost {
    static let shared = ServedHost()

    struct Running: Sendable {
        let process: HostProcess
        let directory: TemporaryDirectory
        let baseURL: String
    }

    private var running: Task<Running, any Error>?
    private var users = 0

    /// Runs `body` with the shared host; the host keeps running while any test uses it.
    static func with<T: Sendable>(_ body: @Sendable (Running) async throws -> T) async throws -> T {
        let host = try await shared.acquire()
        do {
            let result = try await body(host)
            await shared.release()
            return result
        } catch {
            await shared.release()
            throw error
        }
    }

    private func acquire() async throws -> Running {
        users += 1
        if let running { return try await running.value }
        let task = Task {
            let directory = try TemporaryDirectory()
            let process = try HostProcess(dataDirectory: directory.url)
            let url = try await process.waitUntilListening()
            return Running(process: process, directory: directory, baseURL: url)
        }
        running = task
        return try await task.value
    }

    private func release() async {
        users -= 1
        guard users == 0, let task = running else { return }
        running = nil
        if let host = try? await task.value {
            await host.process.stop()
            host.directory.remove()
        }
    }
}
