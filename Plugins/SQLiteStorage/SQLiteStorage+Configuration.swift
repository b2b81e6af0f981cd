public import ChunkedVersionStore

extension SQLiteStorage {
    /// The tuning of a ``SQLiteStorage``: chunk size, chunks per write transaction, lease and abandoned-write
    /// times, the clock. It is the chunked-version engine's, the same type as `PostgresStorage.Configuration`.
    public typealias Configuration = ChunkedStorageConfiguration
}
