public import Foundation
public import NIOPosix
import WOPIStorage

/// An ``AuditLog`` in a JSON-lines file: one event per line, appended with `O_APPEND` (one `write` per event, so
/// processes sharing the file never interleave their lines), mode 0600. Read with `jq`, `grep`, or
/// `wopi-host audit`. The file grows without bound: rotate it with logrotate (`copytruncate`).
public struct FileAuditLog: AuditLog {
    /// The file.
    public let url: URL
    private let pool: NIOThreadPool

    /// A log appending to `url` (created on the first event).
    public init(url: URL, threadPool: NIOThreadPool = .singleton) {
        self.url = url
        self.pool = threadPool
    }

    /// The JSON of one line: sorted keys, the date in seconds since 1970.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    public func record(_ event: AuditEvent) async throws {
        let line = try Self.encoder().encode(event) + [UInt8(ascii: "\n")]
        let path = url.path
        try await pool.runBlocking("append to the audit log \(path)") {
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw POSIXFailure(errno: errno, "open \(path)") }
            defer { close(fd) }
            let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == line.count else { throw POSIXFailure(errno: written < 0 ? errno : EIO, "write \(path)") }
        }
    }

    public func events(matching query: AuditQuery) async throws -> [AuditEvent] {
        let url = url
        let data = try await pool.runBlocking("read the audit log \(url.path)") { () -> Data in
            FileManager.default.fileExists(atPath: url.path) ? try Data(contentsOf: url) : Data()
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(AuditEvent.self, from: $0) }
            .filter { $0.matches(query) }
    }
}
