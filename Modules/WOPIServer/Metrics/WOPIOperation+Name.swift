extension WOPIOperation {
    /// The operation as the protocol names it (`CheckFileInfo`, `PutFile`, …): a bounded label for metrics and
    /// spans, never an item ID. The file and container forms of one operation share its name.
    var name: String {
        switch self {
        case .checkFileInfo: "CheckFileInfo"
        case .getFile: "GetFile"
        case .getFromFileURL: "GetFileFromFileUrl"
        case .getTemplate: "GetTemplate"
        case .changeCoauthLock(_, .get): "GetCoauthLock"
        case .changeCoauthLock(_, .refresh): "RefreshCoauthLock"
        case .changeCoauthLock(_, .unlock): "UnlockCoauthLock"
        case .getCoauthTable: "GetCoauthTable"
        case .chunkedTransfer(_, .getChunkedFile): "GetChunkedFile"
        case .chunkedTransfer(_, .putChunkedFile): "PutChunkedFile"
        case .chunkedTransfer(_, .getChunks): "GetChunks"
        case .chunkedTransfer(_, .getSequenceNumber): "GetSequenceNumber"
        case .chunkedTransfer(_, .createUploadSession): "CreateUploadSession"
        case .chunkedTransfer(_, .updateUploadSession): "UpdateUploadSession"
        case .putFile: "PutFile"
        case .lock: "Lock"
        case .unlockAndRelock: "UnlockAndRelock"
        case .refreshLock: "RefreshLock"
        case .unlock: "Unlock"
        case .getLock: "GetLock"
        case .putRelativeFile: "PutRelativeFile"
        case .renameFile: "RenameFile"
        case .deleteFile: "DeleteFile"
        case .putUserInfo: "PutUserInfo"
        case .getFileShareURL, .getContainerShareURL: "GetShareUrl"
        case .addActivities: "AddActivities"
        case .enumerateFileAncestors, .enumerateContainerAncestors: "EnumerateAncestors"
        case .getFileEcosystem, .getContainerEcosystem: "GetEcosystem"
        case .checkContainerInfo: "CheckContainerInfo"
        case .createChildContainer: "CreateChildContainer"
        case .createChildFile: "CreateChildFile"
        case .deleteContainer: "DeleteContainer"
        case .renameContainer: "RenameContainer"
        case .enumerateChildren: "EnumerateChildren"
        case .checkEcosystem: "CheckEcosystem"
        case .getRootContainer: "GetRootContainer"
        case .getFileWopiSrc: "GetFileWopiSrc"
        case .bootstrap: "Bootstrap"
        case .unknownItem: "UnknownItem"
        case .unsupported: "Unsupported"
        }
    }

    /// The label of a request whose path is no WOPI endpoint.
    static let notWOPIName = "NotWOPI"
}
