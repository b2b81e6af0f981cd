import WOPIHTTPEdge
import WOPIStorage

extension WOPIOperation {
    /// The path a save this operation makes is recorded with (``SaveContext``), or `nil` for an operation that
    /// saves no content.
    var savePath: SavePath? {
        switch self {
        case .putFile: .putFile
        case .putRelativeFile: .putRelativeFile
        case .chunkedTransfer(_, .putChunkedFile): .putChunkedFile
        case .chunkedTransfer(_, .updateUploadSession), .chunkedTransfer(_, .createUploadSession): .uploadSession
        case .createChildFile: .create
        default: nil
        }
    }
}

extension WOPIHost {
    /// Runs `body`, the performance of `operation` for `user`, with the ``SaveContext`` a backend that keeps
    /// versions records: the user, the operation, and the editor's autosave and exit-save flags from its headers.
    func performing<T>(
        _ operation: WOPIOperation, request: WOPIRequest, user: WOPIUser, _ body: () async throws -> T
    ) async throws -> T {
        guard let path = operation.savePath else { return try await body() }
        let details = ClientSaveHeaders(request).details
        let save = SaveContext(
            userID: user.id, path: path, isAutosave: details.isAutosave ?? false,
            isExitSave: details.isExitSave ?? false)
        return try await SaveContext.$current.withValue(save, operation: body)
    }

    /// Runs `body`, a save by `user`, with a ``SaveContext`` on `path`, unless the caller set one already (a WOPI
    /// operation, a command).
    func saving<T>(by user: WOPIUser, through path: SavePath, _ body: () async throws -> T) async throws -> T {
        if SaveContext.current != nil { return try await body() }
        return try await SaveContext.$current.withValue(SaveContext(userID: user.id, path: path), operation: body)
    }
}
