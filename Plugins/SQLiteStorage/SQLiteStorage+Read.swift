import ChunkedVersionStore
import Foundation
import GRDB
public import WOPIStorage

extension SQLiteStorage {
    public func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        let now = configuration.timestamp
        let versions = versions
        // The lease is taken in the transaction that picks the version.
        let (file, lease) = try await perform("open file \(id) for reading") {
            try await pool.write { db in
                let file = try SQLiteStorageSQL.requireFile(db, id)
                let opening = try versions.opening(file, now: now)
                return (file, try opening.lease(from: versions.dialect.run(db, opening.statements)))
            }
        }
        return try await versions.content(of: file, range: range, lease: lease)
    }
}
