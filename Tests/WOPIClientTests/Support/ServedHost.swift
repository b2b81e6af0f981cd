import Foundation
import Synchronization
import WOPIClient
import WOPIModels
import WOPITestSupport

/// One `wopi-host serve` process shared by the tests that need it, started on first use and stopped when the
/// last test holding it lets go (and, as a safety net, when the test process exits).
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

extension ServedHost.Running {
    /// `wopi-host token` for a file of a user: its WOPISrc and token, as a resource.
    func token(user: String = "demo", file: String = "Welcome.docx", ttl: Int = 3600) async throws -> WOPIResource {
        let token = try await HostProcess.token(data: directory.url, user: user, file: file, ttl: ttl)
        return try WOPIResource(
            endpoint: URL(string: token.wopiSrc)!, accessToken: token.accessToken,
            expiry: EpochMilliseconds.date(token.accessTokenTTL))
    }
}
