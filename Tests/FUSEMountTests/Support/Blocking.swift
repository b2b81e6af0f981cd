import Foundation

/// Runs blocking file-system work on its own thread.
///
/// The FUSE replies of a mount in this process come from Swift tasks, so a test must never block a Swift
/// concurrency thread on a syscall into the mount (that could starve the pool that serves it).
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// The outcome of one command-line tool run.
struct CommandResult: Sendable {
    var status: Int32
    var output: String
    var errorOutput: String
}

/// Runs a tool (`ls`, `cp`, `mv`, …) to completion on its own thread and captures its output.
func runCommand(_ arguments: [String], in directory: String? = nil) async throws -> CommandResult {
    try await blocking {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errorOutput: String(decoding: errorData, as: UTF8.self))
    }
}

/// POSIX helpers that report `errno` instead of throwing, for checking exact error codes. Call them inside
/// ``blocking(_:)``.
enum POSIX {
    /// The result of a call: its return value and the `errno` right after it.
    struct Outcome: Sendable, Equatable {
        var value: Int
        var error: Int32
        var failed: Bool { value < 0 }
    }

    static func call(_ body: () -> Int) -> Outcome {
        errno = 0
        let value = body()
        return Outcome(value: value, error: value < 0 ? errno : 0)
    }

    /// Writes `bytes` to a new or truncated file; returns the errno of the first failing step, 0 on success.
    static func writeFile(_ path: String, _ bytes: [UInt8], flags: Int32 = O_WRONLY | O_CREAT | O_TRUNC) -> Int32 {
        let fd = open(path, flags | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return errno }
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if written < 0 {
                let code = errno
                close(fd)
                return code
            }
            done += written
        }
        return close(fd) == 0 ? 0 : errno
    }

    /// Reads a whole file, or throws its errno.
    static func readFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if got < 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            if got == 0 { return result }
            result.append(contentsOf: chunk[0..<got])
        }
    }
}
