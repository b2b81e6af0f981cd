public import Foundation
import Glibc
import NIOPosix
import WOPIStorage

/// One thing a deployment needs in order to serve, checked by `GET /readyz`: a database that answers, a data
/// folder that takes writes, discovery that is loaded.
///
/// A check throws when the deployment cannot serve. `/readyz` runs every check at once, each bounded by
/// ``WOPIDeployment/Configuration/readinessTimeout``, and answers `503` if one throws or runs late; the check's
/// ``name`` and error go to the log, never to the caller.
public struct ReadinessCheck: Sendable {
    /// What is checked, for the log (`database`, `data folder`, `discovery`).
    public let name: String
    /// Throws when the deployment cannot serve.
    public let check: @Sendable () async throws -> Void

    /// A check of your own.
    public init(_ name: String, check: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.check = check
    }

    /// `folder` takes writes and its file system has at least `minimumFreeBytes` free (64 MiB by default).
    public static func writableFolder(_ folder: URL, minimumFreeBytes: Int64 = 64 << 20) -> ReadinessCheck {
        ReadinessCheck("data folder") {
            try await NIOThreadPool.singleton.runBlocking("checking \(folder.path)") {
                guard access(folder.path, W_OK) == 0 else {
                    throw ReadinessFailure("\(folder.path) is not writable (errno \(errno))")
                }
                var stats = statvfs()
                guard statvfs(folder.path, &stats) == 0 else {
                    throw ReadinessFailure("statvfs \(folder.path) failed (errno \(errno))")
                }
                let free = Int64(stats.f_bavail) * Int64(stats.f_frsize)
                guard free >= minimumFreeBytes else {
                    throw ReadinessFailure("\(folder.path) has \(free) bytes free, under \(minimumFreeBytes)")
                }
            }
        }
    }
}

/// Why a built-in ``ReadinessCheck`` failed, for the log.
struct ReadinessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
