import GRDB
import WOPIStorage

/// Turns SQLite and GRDB errors into ``WOPIStorage/StorageError``s whose message says what to do.
enum SQLiteErrorMapping {
    /// Runs `body`, mapping any error it throws. `action` is only built when there is an error to describe.
    static func perform<T>(_ action: @autoclosure () -> String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw storageError(error, doing: action())
        }
    }

    /// The storage error for `error`, which happened while trying to `action`.
    static func storageError(_ error: any Error, doing action: String) -> StorageError {
        if let error = error as? StorageError { return error }
        if error is CancellationError {
            return StorageError(.io, "Could not \(action): the task was cancelled.", underlying: error)
        }
        guard let error = error as? DatabaseError else {
            return StorageError(.io, "Could not \(action): \(error).", underlying: error)
        }
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            return StorageError(
                .nameConflict, "Could not \(action): an item with that name already exists; pick another name.",
                underlying: error)
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            return StorageError(
                .notFound, "Could not \(action): an item it refers to was deleted meanwhile; refresh and retry.",
                underlying: error)
        default:
            break
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StorageError(
                .busy, "Could not \(action): the database stayed locked by another connection; retry later.",
                underlying: error)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return StorageError(
                .corrupt,
                "Could not \(action): the database file is damaged or not a SQLite database; restore a backup.",
                underlying: error)
        case .SQLITE_FULL:
            return StorageError(.io, "Could not \(action): the disk is full; free some space.", underlying: error)
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
            return StorageError(
                .io, "Could not \(action): the database file cannot be opened for writing; check its permissions.",
                underlying: error)
        default:
            return StorageError(
                .io, "Could not \(action): SQLite failed (\(error.message ?? "\(error)")).",
                underlying: error)
        }
    }
}
