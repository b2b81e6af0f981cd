import WOPIStorage

extension ChunkedVersionStore {
    /// The bytes of the distinct chunks that the listed versions (complete, not retired) of `user`'s files hold
    /// (`StorageUsage.storedBytes(ownedBy:)`): a chunk that several of them share counts once. One statement, no
    /// transaction held afterwards.
    package func storedBytes(ownedBy user: String) async throws -> Int64 {
        let rows = try await dialect.read(
            "count the bytes of \(user)'s files",
            SQLStatement(
                """
                SELECT CAST(COALESCE(SUM(c.length), 0) AS BIGINT) FROM chunks c
                WHERE c.chunk_id IN (
                  SELECT vc.chunk_id FROM version_chunks vc
                  JOIN file_versions f ON f.id = vc.version_id
                  JOIN items i ON i.id = f.file_id
                  WHERE i.owner_id = ? AND i.kind = 'file' AND f.state = 'complete' AND f.retired = 0)
                """, [.text(user)], columns: [.integer]))
        return rows.first?.first?.integer ?? 0
    }
}
