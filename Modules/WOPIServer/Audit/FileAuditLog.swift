public import Foundation
public import Logging
public import NIOPosix
import WOPIHTTPEdge
import WOPIStorage

/// An ``AuditLog`` in a JSON-lines file: one event per line, appended with `O_APPEND`, mode 0600. Read with `jq`,
/// `grep`, or `wopi-host audit`. The file grows without bound: rotate it with logrotate (`copytruncate`).
///
/// Events recorded at the same time go out together, in one `write` of whole lines, so processes sharing the file
/// never interleave their lines; ``record(_:)`` returns once its line is written, ``submit(_:reportingFailuresTo:)``
/// at once (`AuditGroupCommit`).
public struct FileAuditLog: AuditLog {
    /// The file.
    public let url: URL
    private let pool: NIOThreadPool
    private let batches: AuditGroupCommit

    /// A log appending to `url` (created on the first event).
    public init(url: URL, threadPool: NIOThreadPool = .singleton) {
        self.url = url
        self.pool = threadPool
        let path = url.path
        batches = AuditGroupCommit { events in
            let lines = try Self.lines(events)
            try await threadPool.runBlocking("append to the audit log \(path)") {
                let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
                guard fd >= 0 else { throw POSIXFailure(errno: errno, "open \(path)") }
                defer { close(fd) }
                let written = lines.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard written == lines.count else {
                    throw POSIXFailure(errno: written < 0 ? errno : EIO, "write \(path)")
                }
            }
        }
    }

    /// The JSON of one line: sorted keys, no escaped slashes, the date in seconds since 1970.
    package static func encoder() -> JSONEncoder { DirectJSONWriter.matchingEncoder(datesSince1970: true) }

    /// The lines of `events`, each the bytes ``encoder()`` writes and a newline.
    package static func lines(_ events: [AuditEvent]) throws -> [UInt8] {
        let writer = DirectJSONWriter.reusable(datesSince1970: true)
        var lines: [UInt8] = []
        for event in events {
            try writer.appendJSON(of: event, to: &lines)
            lines.append(UInt8(ascii: "\n"))
        }
        return lines
    }

    public func record(_ event: AuditEvent) async throws {
        try await batches.record(event)
    }

    public func submit(_ event: AuditEvent, reportingFailuresTo logger: Logger) async {
        await batches.submit(event, reportingFailuresTo: logger)
    }

    public func flush() async {
        await batches.flush()
    }

    public func events(matching query: AuditQuery) async throws -> [AuditEvent] {
        await batches.flush()
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
