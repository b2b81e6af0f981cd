public import Foundation
package import NIOCore
public import NIOPosix
import WOPIFoundation
import WOPIHTTPEdge

/// An ``AuditLog`` in a JSON-lines file: one event per line, appended with `O_APPEND`, mode 0600. Read with `jq`,
/// `grep`, or `wopi-host audit`. The file grows without bound: rotate it with logrotate (`copytruncate`).
///
/// Events recorded at the same time go out together, in one `write` of whole lines, so processes sharing the file
/// never interleave their lines; ``record(_:)`` returns once its line is written, ``submit(_:reportingFailuresTo:)``
/// at once (`AuditGroupCommit`).
public struct FileAuditLog: GroupCommitAuditLog {
    /// The file.
    public let url: URL
    private let pool: NIOThreadPool
    /// The batches its events are written in.
    public let batches: AuditGroupCommit

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
                let written = lines.withUnsafeReadableBytes { write(fd, $0.baseAddress, $0.count) }
                guard written == lines.readableBytes else {
                    throw POSIXFailure(errno: written < 0 ? errno : EIO, "write \(path)")
                }
            }
        }
    }

    /// The JSON of one line: sorted keys, no escaped slashes, the date in seconds since 1970.
    package static func encoder() -> JSONEncoder { DirectJSONWriter.matchingEncoder(datesSince1970: true) }

    /// The lines of `events`, each the bytes ``encoder()`` writes and a newline; written member by member, in the
    /// order of their keys, rather than through `Encodable` (an open costs one line, and CheckFileInfo is the most
    /// frequent request).
    package static func lines(_ events: [AuditEvent]) throws -> ByteBuffer {
        var lines = ByteBuffer()
        lines.reserveCapacity(events.count * 160)
        for event in events {
            var object = JSONObjectWriter(after: consume lines)
            object.member("action", event.action.rawValue)
            object.member("address", event.address)
            try object.member("date", event.date.timeIntervalSince1970)
            object.member("details", event.details)
            object.member("itemID", event.itemID)
            object.member("userID", event.userID)
            lines = object.finish()
            lines.writeInteger(UInt8(ascii: "\n"))
        }
        return lines
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
