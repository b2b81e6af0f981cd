import ChunkedVersionStore
import Foundation
import GRDB
public import WOPIStorage

extension SQLiteStorage: ChunkedContentStorage {
    /// The chunks of the current content of file `id`, listed from the database without reading the content.
    ///
    /// A version written before the chunk layout (an older database) is cut by reading its content once.
    public func contentChunks(of id: ItemID) async throws -> ContentChunkList {
        let versions = versions
        let (file, rows) = try await perform("list the chunks of file \(id)") {
            try await pool.read { db in
                let file = try SQLiteStorageSQL.requireFile(db, id)
                return (file, try versions.dialect.run(db, versions.chunkListing(of: file)))
            }
        }
        return try await versions.contentChunks(of: file, listed: rows) { try await readFile(id, range: nil) }
    }
}
