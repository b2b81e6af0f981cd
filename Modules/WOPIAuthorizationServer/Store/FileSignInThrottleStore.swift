public import Foundation
public import NIOPosix
import WOPIAccounts
import WOPIFoundation

/// A ``SignInThrottleStore`` in one JSON file, shared by every process that opens it (the file deployment's
/// companion of ``FileOAuthStore``).
///
/// Every change takes an exclusive `flock` on a companion `.lock` file, reads the file, changes it, drops counts
/// whose last failure is older than the caller's `forgetBefore`, and replaces the file atomically and durably (mode
/// 0600). The file I/O runs on a `NIOThreadPool`. Meant for small deployments.
public struct FileSignInThrottleStore: SignInThrottleStore {
    /// The JSON file.
    public var url: URL { file.url }
    private let file: SharedJSONFile<[String: SignInFailures]>

    /// Creates a store backed by the file at `url` (created with its folder on first write).
    ///
    /// - Parameter threadPool: the pool that runs the blocking file I/O.
    public init(url: URL, threadPool: NIOThreadPool = .singleton) {
        file = SharedJSONFile(url: url, threadPool: threadPool, initial: { [:] })
    }

    public func failures(_ key: String) async throws -> SignInFailures? { try await file.read()[key] }

    public func recordFailure(_ key: String, at date: Date, forgetBefore: Date) async throws -> SignInFailures {
        try await file.update { counts in
            counts = counts.filter { $0.value.last >= forgetBefore }
            let updated =
                counts[key]?.adding(failureAt: date, forgetBefore: forgetBefore) ?? SignInFailures(count: 1, last: date)
            counts[key] = updated
            return updated
        }
    }

    public func resetFailures(_ key: String) async throws {
        try await file.update { counts in counts[key] = nil }
    }
}
