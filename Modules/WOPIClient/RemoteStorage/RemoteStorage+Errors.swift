import WOPIStorage

extension RemoteStorage {
    /// Runs a client call, turning a ``WOPIClientError`` into the ``StorageError`` a backend throws.
    ///
    /// - Parameters:
    ///   - id: the item the call is about, for messages and to forget it on `404`.
    ///   - conflict: the storage error for a `409` without a lock (a taken name, a non-empty container).
    func remote<T: Sendable>(
        _ what: String, _ id: ItemID?, conflict: StorageError.Code = .nameConflict,
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch {
            throw await mapped(error, what, id, conflict: conflict)
        }
    }

    /// The error a backend throws for an error of a client call.
    func mapped(_ error: any Error, _ what: String, _ id: ItemID?, conflict: StorageError.Code = .nameConflict) async
        -> any Error
    {
        switch error {
        case let error as StorageError:
            return error
        case let error as WOPIClientError:
            if error.code == .notFound, let id { await directory.forget(id) }
            return Self.storageError(for: error, what: what, id: id, conflict: conflict)
        case let error as CancellationError:
            return error
        default:
            return StorageError(.io, "\(what) failed: \(error)", underlying: error)
        }
    }

    static func storageError(
        for error: WOPIClientError, what: String, id: ItemID?, conflict: StorageError.Code
    ) -> StorageError {
        switch error.code {
        case .notFound:
            return StorageError(
                .notFound, "\(what): the remote item \(id.map(\.rawValue) ?? "") does not exist (any more).",
                underlying: error)
        case .conflict:
            return StorageError(conflict, "\(what): \(error.message)", underlying: error)
        case .lockConflict:
            return StorageError(
                .io,
                "\(what): the remote file is locked by another WOPI client (lock \(error.currentLock ?? "")); "
                    + "try again once it is closed there.", underlying: error)
        case .invalidName:
            return StorageError(.invalidName, "\(what): \(error.message)", underlying: error)
        case .sequenceConflict:
            return StorageError(
                .versionMismatch, "\(what): the file changed on the host meanwhile; read it again.",
                underlying: error)
        case .tooLarge, .preconditionFailed:
            return StorageError(.tooLarge, "\(what): \(error.message)", underlying: error)
        case .notImplemented:
            return StorageError(.unsupported, "\(what): \(error.message)", underlying: error)
        default:
            return StorageError(.io, "\(what): \(error.message)", underlying: error)
        }
    }
}
