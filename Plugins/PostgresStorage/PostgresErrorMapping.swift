import PostgresNIO
import WOPIStorage

/// Turns postgres-nio errors into ``WOPIStorage/StorageError``s whose message says what to do.
enum PostgresErrorMapping {
    /// The storage error for `error`, which happened while trying to `action`.
    ///
    /// - Parameter timedOut: whether the operation never got a connection (its deadline cut it short).
    static func storageError(_ error: any Error, doing action: String, timedOut: Bool) -> StorageError {
        if let error = error as? StorageError { return error }
        if let error = error as? PSQLError {
            return storageError(error, doing: action)
        }
        if timedOut {
            return StorageError(
                .unavailable, "Could not \(action): the database cannot be reached for now; retry in a few seconds.",
                underlying: error)
        }
        if error is CancellationError {
            return StorageError(.io, "Could not \(action): the task was cancelled.", underlying: error)
        }
        // ConnectionPoolError (the pool's circuit breaker tripped, the pool shut down) and socket errors.
        return StorageError(
            .unavailable, "Could not \(action): the database cannot be reached (\(error)); retry in a few seconds.",
            underlying: error)
    }

    private static func storageError(_ error: PSQLError, doing action: String) -> StorageError {
        guard error.code == .server else {
            // Lost connections, refused connections, a shut-down pool, a cancelled wait for a connection.
            return StorageError(
                .unavailable,
                "Could not \(action): the connection to the database failed (\(error.code)); retry in a few seconds.",
                underlying: error)
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? "\(error)"
        switch state {
        case "23505":
            return StorageError(
                .nameConflict, "Could not \(action): an item with that name already exists; pick another name.",
                underlying: error)
        case "23503":
            return StorageError(
                .notFound,
                "Could not \(action): an item it refers to was deleted or changed meanwhile; refresh and retry.",
                underlying: error)
        case _ where state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53"),
            "40001", "40P01":
            // Connection exceptions, an administrator's shutdown, too many connections, serialisation failures.
            return StorageError(
                .unavailable, "Could not \(action): the database is unavailable for now (\(message)); retry.",
                underlying: error)
        default:
            return StorageError(
                .io, "Could not \(action): PostgreSQL failed (\(state): \(message)).", underlying: error)
        }
    }
}
