import Foundation
import WOPITestSupport

/// What the validator is pointed at: the WOPISrc of a `.wopitest` file, a token for it and the token's TTL
/// (the CLI's `-w`, `-t` and `-l`).
struct ValidatorTarget: Sendable {
    /// The storage the example host runs on.
    enum Storage: String, CaseIterable, Sendable, CustomStringConvertible {
        case sqlite, fs
        var description: String { rawValue }
    }

    let wopiSrc: String
    let accessToken: String
    let accessTokenTTL: Int64
    /// The keys every request is signed with (an `OfficeOnline` run), or `nil` (an `OfficeNativeClient` run).
    var proofKeys: ValidatorProofKeys? = nil
    /// Moves the host's clock on, for the validator's `Delay`s; `nil` for a host on the real clock.
    var advanceClock: (@Sendable (Double) async -> Void)? = nil
    /// Whether the host is configured for co-authoring: the run then includes the `WopiCoauth` cases.
    var coauthoring = false

    /// The case categories the run includes: `WopiCore` plus the signing client's own category (and
    /// `WopiCoauth` on a co-authoring host).
    var categories: Set<ValidatorCase.Category> {
        Set([.wopiCore, proofKeys == nil ? .officeNativeClient : .officeOnline]).union(coauthoring ? [.wopiCoauth] : [])
    }

    /// Where the test file goes: the validator needs at least one ancestor container, so not the root.
    static let testFilePath = "WopiValidator/test.wopitest"

    /// Starts the real `wopi-host serve --storage STORAGE --port 0` on a fresh data directory, imports a
    /// small `test.wopitest` below the demo user's root, mints a token with `wopi-host token`, runs `body`,
    /// then stops the host and removes the directory.
    static func withHost<T: Sendable>(
        storage: Storage, extraArguments: [String] = [], _ body: @Sendable (ValidatorTarget) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(
            dataDirectory: directory.url, extraArguments: ["--storage", storage.rawValue] + extraArguments)
        do {
            _ = try await host.waitUntilListening()
            let local = directory.url.appendingPathComponent("seed.wopitest")
            try Data("wopitest".utf8).write(to: local)
            let data = directory.url.path
            _ = try await HostProcess.run(["import", "--data", data, "--user", "demo", local.path, testFilePath])
            let token = try await HostProcess.token(data: directory.url, file: testFilePath)
            let target = ValidatorTarget(
                wopiSrc: token.wopiSrc, accessToken: token.accessToken, accessTokenTTL: token.accessTokenTTL)
            let result = try await body(target)
            await host.stop()
            return result
        } catch {
            await host.stop()
            throw error
        }
    }
}
