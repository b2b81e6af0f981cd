import ChunkedVersionStore
import Foundation
import PostgresNIO
public import WOPIStorage

extension PostgresStorage: ChunkedContentStorage {
    /// The chunks of the current content of file `id`, listed from the database without reading the content.
    ///
    /// A version written before the chunk layout (an older database) is cut by reading its content once.
    public func contentChunks(of id: ItemID) async throws -> ContentChunkList {
        let versions = versions
        let (file, rows) = try await transaction("list the chunks of file \(id)") { sql in
            let file = try await sql.requireFile(id, lock: "SHARE")
            return (file, try await sql.run(versions.chunkListing(of: file)))
        }
        return try await versions.contentChunks(of: file, listed: rows) { try await readFile(id, range: nil) }
    }
}
