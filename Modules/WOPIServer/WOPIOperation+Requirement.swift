extension WOPIOperation {
    /// What the operation needs of the user's access to its ``resource`` (as WopiHost's `RequireWopiPermission`
    /// declares it per endpoint): the host checks it once, in ``WOPIHost`` before ``WOPIHost/perform``, which has
    /// no checks of its own. A change also passes the ``ChangeGuard``s once the operation knows what it changes
    /// (``WOPIHost/authorize(_:by:access:)``).
    var requirement: ItemAction {
        switch self {
        case .putFile, .lock, .unlockAndRelock, .refreshLock, .unlock, .changeCoauthLock: .write
        case .chunkedTransfer(_, let transfer): transfer.isChange ? .write : .read
        case .getFile: .read
        case .putRelativeFile, .createChildContainer, .createChildFile: .createChildren
        case .renameFile, .renameContainer: .rename
        case .deleteFile, .deleteContainer: .delete
        case .getFileShareURL, .getContainerShareURL: .share
        case .checkFileInfo, .getLock, .putUserInfo, .addActivities, .getTemplate, .enumerateFileAncestors,
            .getCoauthTable, .getFileEcosystem, .checkContainerInfo, .enumerateChildren, .enumerateContainerAncestors,
            .getContainerEcosystem, .checkEcosystem, .getRootContainer, .getFileWopiSrc, .unsupported, .bootstrap,
            .unknownItem, .getFromFileURL:
            .see
        }
    }

    /// Whether the operation is a Lock, UnlockAndRelock, RefreshLock or Unlock, which
    /// ``WOPIHostConfiguration/viewOnlyLocks`` may acknowledge for a view-only user instead of refusing.
    var isLockChange: Bool {
        switch self {
        case .lock, .unlockAndRelock, .refreshLock, .unlock: true
        default: false
        }
    }
}

extension WOPIOperation.ChunkedTransfer {
    /// Whether the transfer writes (PutChunkedFile and the upload sessions) rather than reads.
    var isChange: Bool {
        switch self {
        case .putChunkedFile, .createUploadSession, .updateUploadSession: true
        case .getChunkedFile, .getChunks, .getSequenceNumber: false
        }
    }
}
