public import ChunkedVersionStore

extension PostgresStorage {
    /// The tuning of a ``PostgresStorage``: chunk size, chunks per write transaction, lease and abandoned-write
    /// times, the clock (every host of a deployment should keep its clock in sync, NTP). It is the chunked-version
    /// engine's, the same type as `SQLiteStorage.Configuration`.
    public typealias Configuration = ChunkedStorageConfiguration
}
