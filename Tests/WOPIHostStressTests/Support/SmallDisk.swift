import Foundation
import WOPITestSupport

/// A small tmpfs the test mounts, to fill up; the tests run as root (fault tests need `mount`), and fail loudly
/// when they cannot mount.
struct SmallDisk {
    /// The mount point.
    let url: URL

    /// Mounts a tmpfs of `megabytes` at `url` (created first).
    static func mount(at url: URL, megabytes: Int) async throws -> SmallDisk {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try await run(["mount", "-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", url.path])
        return SmallDisk(url: url)
    }

    /// Makes the file system `megabytes` large, keeping what it holds.
    func resize(megabytes: Int) async throws {
        try await Self.run(["mount", "-o", "remount,size=\(megabytes)m", url.path])
    }

    /// Unmounts it (lazily, so that a process still holding a file there cannot block the test's cleanup).
    func unmount() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = ["-l", url.path]
        try? process.run()
        process.waitUntilExit()
    }

    private static func run(_ arguments: [String]) async throws {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        guard result.status == 0 else {
            throw HostProcessError(
                "`\(arguments.joined(separator: " "))` failed (\(result.status)): \(result.error)"
                    + " The fault tests mount a tmpfs: run them as root with mount permission.")
        }
    }
}
