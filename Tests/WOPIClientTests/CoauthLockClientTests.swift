import Foundation
import Testing
import WOPIClient
import WOPIModels
import WOPITestSupport

/// The client's coauth-lock calls against a live `wopi-host serve --coauthoring` (real sockets).
@Suite struct CoauthLockClientTests {
    @Test("get, refresh, table with and without a current version, unlock, conflict with a WOPI lock")
    func coauthLocks() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let process = try HostProcess(dataDirectory: directory.url, extraArguments: HostProcess.coauthoringArguments)
        _ = try await process.waitUntilListening()
        do {
            let token = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
            let file = try WOPIResource(endpoint: URL(string: token.wopiSrc)!, accessToken: token.accessToken)
            try await withClient { client in
                let taken = try await client.getCoauthLock(file, lockID: "session-a", metadata: "a's cursor")
                #expect(taken.locks?.map(\.coauthLockID) == ["session-a"])
                #expect(taken.locks?.first?.coauthLockMetadata == "a's cursor")
                let joined = try await client.getCoauthLock(file, lockID: "session-b")
                #expect(Set(joined.locks?.map(\.coauthLockID) ?? []) == ["session-a", "session-b"])
                let current = try await client.getCoauthTable(file, knownVersion: joined.version)
                #expect(current.locks == nil, "a current version gets no rows")
                #expect(current.version == joined.version)
                _ = try await client.refreshCoauthLock(file, lockID: "session-a", timeout: .seconds(600))
                try await client.unlockCoauthLock(file, lockID: "session-a")
                let left = try await client.unlockCoauthLock(file, lockID: "session-b")
                #expect(left.locks?.isEmpty == true)
                #expect(left.version != joined.version)
                // A WOPI lock and coauth locks exclude each other.
                try await client.lock(file, lockID: "wopi-lock")
                let refused = await #expect(throws: WOPIClientError.self) {
                    try await client.getCoauthLock(file, lockID: "session-c")
                }
                #expect(refused?.code == .lockConflict, "\(String(describing: refused))")
                try await client.unlock(file, lockID: "wopi-lock")
            }
        } catch {
            await process.stop()
            throw error
        }
        await process.stop()
    }
}
