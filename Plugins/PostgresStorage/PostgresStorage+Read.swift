import ChunkedVersionStore
import Foundation
import PostgresNIO
public import WOPIStorage

extension PostgresStorage {
    public func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        let now = configuration.timestamp
        let versions = versions
        // The file's row is read FOR SHARE: a switch to a new version on any host waits until the lease exists.
        let (file, lease) = try await transaction("open file \(id) for reading") { sql in
            let file = try await sql.requireFile(id, lock: "SHARE")
            let opening = try versions.opening(file, now: now)
            return (file, try opening.lease(from: await sql.run(opening.statements)))
        }
        return try await versions.content(of: file, range: range, lease: lease)
    }
}
