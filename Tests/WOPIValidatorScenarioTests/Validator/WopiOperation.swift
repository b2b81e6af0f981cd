import NIOHTTP1
import WOPIModels

/// One request type of the validator, with what it sends: method, path suffix, `X-WOPI-Override` and its
/// own headers and body (facts from `src/WopiValidator.Core/Requests/*.cs`).
enum WopiOperation: Sendable {
    /// How PutRelativeFile, CreateChildFile and CreateChildContainer name their target.
    enum TargetMode: Sendable {
        /// `X-WOPI-SuggestedTarget`.
        case suggested
        /// `X-WOPI-RelativeTarget`, plus `X-WOPI-OverwriteRelativeTarget` when `overwrite` is set.
        case exactName(overwrite: Bool?)
        /// Both target headers.
        case conflicting
    }

    case checkFileInfo
    case getFile(lock: String?)
    case putFile(lock: String?, document: Document)
    case lock(String)
    case unlock(String)
    case refreshLock(String)
    case unlockAndRelock(old: String, new: String)
    case getLock
    case putRelativeFile(TargetMode, name: String, document: Document)
    case renameFile(name: String, lock: String?)
    case deleteFile
    case putUserInfo(String)
    case enumerateAncestors
    case getEcosystem
    case checkEcosystem
    case getRootContainer
    case checkContainerInfo
    case enumerateChildren(filter: String?)
    case createChildContainer(TargetMode, name: String)
    case createChildFile(TargetMode, name: String)
    case deleteContainer
    case renameContainer(name: String)
    /// GetShareUrl on a file or, through an override URL, a container: `X-WOPI-UrlType` as given.
    case getShareUrl(type: String)
    /// AddActivities with a JSON body (`{"Activities": [...]}`), sent as UTF-8.
    case addActivities(json: String)
    /// Lock with `X-WOPI-LockUserVisible` (.NET's `True` / `False`).
    case lockUserVisible(String, visible: Bool)
    /// RenameFile with `X-WOPI-CoauthLockId` (sent when set) beside the always-sent `X-WOPI-Lock`.
    case renameFileCoauth(name: String, lock: String?, coauthLockID: String?)
    /// GetCoauthLock; `metadataAsBody` replaces the metadata header with `{"CoauthLockMetadata": …}`.
    case getCoauthLock(id: String?, type: String?, timeout: Int?, metadata: String?, metadataAsBody: String? = nil)
    /// RefreshCoauthLock; `metadataAsBody` as in GetCoauthLock.
    case refreshCoauthLock(id: String?, timeout: Int?, metadata: String?, metadataAsBody: String? = nil)
    case unlockCoauthLock(id: String?)
    /// GetCoauthTable; `X-WOPI-CoauthTableVersion` is always sent, empty without a version.
    case getCoauthTable(version: String?)
    /// `GetChunkedFile`: the content properties to return and one filter per stream.
    case getChunkedFile(properties: [String], filters: [ChunkedFilter])
    /// `PutChunkedFile`: the sequence number, locks (the validator always sends the four headers, empty when
    /// unset), content properties and new streams.
    case putChunkedFile(
        sequence: String, lock: String?, coauthLockID: String?, properties: [ContentProperty], streams: [ChunkedStream])

    /// The validator's name for the request, as in `TestCases.xml`.
    var name: String {
        switch self {
        case .checkFileInfo: "CheckFileInfo"
        case .getFile: "GetFile"
        case .putFile: "PutFile"
        case .lock: "Lock"
        case .unlock: "Unlock"
        case .refreshLock: "RefreshLock"
        case .unlockAndRelock: "UnlockAndRelock"
        case .getLock: "GetLock"
        case .putRelativeFile: "PutRelativeFile"
        case .renameFile: "RenameFile"
        case .deleteFile: "DeleteFile"
        case .putUserInfo: "PutUserInfo"
        case .enumerateAncestors: "EnumerateAncestors"
        case .getEcosystem: "GetEcosystem"
        case .checkEcosystem: "CheckEcosystem"
        case .getRootContainer: "GetRootContainer"
        case .checkContainerInfo: "CheckContainerInfo"
        case .enumerateChildren: "EnumerateChildren"
        case .createChildContainer: "CreateChildContainer"
        case .createChildFile: "CreateChildFile"
        case .deleteContainer: "DeleteContainer"
        case .renameContainer: "RenameContainer"
        case .getShareUrl: "GetShareUrl"
        case .addActivities: "AddActivities"
        case .lockUserVisible: "Lock"
        case .renameFileCoauth: "RenameFile"
        case .getCoauthLock: "GetCoauthLock"
        case .refreshCoauthLock: "RefreshCoauthLock"
        case .unlockCoauthLock: "UnlockCoauthLock"
        case .getCoauthTable: "GetCoauthTable"
        case .getChunkedFile: "GetChunkedFile"
        case .putChunkedFile: "PutChunkedFile"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .checkFileInfo, .getFile, .enumerateAncestors, .getEcosystem, .checkEcosystem, .getRootContainer,
            .checkContainerInfo, .enumerateChildren:
            .GET
        default:
            .POST
        }
    }

    /// Appended to the path of the WOPISrc or of the override URL.
    var pathSuffix: String {
        switch self {
        case .getFile, .putFile, .putChunkedFile: "/contents"
        case .enumerateAncestors: "/ancestry"
        case .getEcosystem: "/ecosystem_pointer"
        case .getRootContainer: "/root_container_pointer"
        case .enumerateChildren: "/children"
        default: ""
        }
    }

    /// Delete requests never fall back to the test file's WOPISrc (the validator refuses to delete it).
    var needsOverrideURL: Bool {
        switch self {
        case .deleteFile, .deleteContainer: true
        default: false
        }
    }

    /// Request headers in the order the validator adds them (its own, then `X-WOPI-Override`).
    var headers: [(String, String)] {
        var headers: [(String, String)] = []
        switch self {
        case .getFile(let lock?), .putFile(let lock?, _):
            headers.append(("X-WOPI-Lock", lock))
        case .lock(let lock), .unlock(let lock), .refreshLock(let lock):
            headers.append(("X-WOPI-Lock", lock))
        case .unlockAndRelock(let old, let new):
            headers += [("X-WOPI-Lock", new), ("X-WOPI-OldLock", old)]
        case .putRelativeFile(let mode, let name, let document):
            headers.append(("X-WOPI-Size", String(document.bytes.count)))
            headers += Self.targetHeaders(mode, name: name)
        case .createChildFile(let mode, let name), .createChildContainer(let mode, let name):
            headers += Self.targetHeaders(mode, name: name)
        case .renameFile(let name, let lock):
            // The validator always adds X-WOPI-Lock; without a lock .NET sends it with an empty value.
            headers += [("X-WOPI-RequestedName", DotNetUTF7.encode(name)), ("X-WOPI-Lock", lock ?? "")]
        case .renameContainer(let name):
            headers.append(("X-WOPI-RequestedName", DotNetUTF7.encode(name)))
        case .enumerateChildren(let filter?):
            headers.append(("X-WOPI-FileExtensionFilterList", filter))
        case .getShareUrl(let type):
            headers.append(("X-WOPI-UrlType", type))
        case .lockUserVisible(let lock, let visible):
            headers += [("X-WOPI-Lock", lock), ("X-WOPI-LockUserVisible", visible ? "True" : "False")]
        case .renameFileCoauth(let name, let lock, let coauthLockID):
            headers += [("X-WOPI-RequestedName", DotNetUTF7.encode(name)), ("X-WOPI-Lock", lock ?? "")]
            if let coauthLockID { headers.append(("X-WOPI-CoauthLockId", coauthLockID)) }
        case .getCoauthLock(let id, let type, let timeout, let metadata, let body):
            if let type { headers.append(("X-WOPI-CoauthLockType", type)) }
            headers += Self.coauthHeaders(id: id, timeout: timeout, metadata: body == nil ? metadata : nil)
        case .refreshCoauthLock(let id, let timeout, let metadata, let body):
            headers += Self.coauthHeaders(id: id, timeout: timeout, metadata: body == nil ? metadata : nil)
        case .unlockCoauthLock(let id?):
            headers.append(("X-WOPI-CoauthLockId", id))
        case .getCoauthTable(let version):
            headers.append(("X-WOPI-CoauthTableVersion", version ?? ""))
        case .putChunkedFile(let sequence, let lock, let coauthLockID, _, _):
            headers += [
                ("X-WOPI-SequenceNumber", sequence), ("X-WOPI-Lock", lock ?? ""),
                ("X-WOPI-CoauthLockId", coauthLockID ?? ""), ("X-WOPI-Editors", ""),
            ]
        default:
            break
        }
        if let override { headers.append(("X-WOPI-Override", override)) }
        return headers
    }

    var override: String? {
        switch self {
        case .putFile: "PUT"
        case .lock, .unlockAndRelock: "LOCK"
        case .unlock: "UNLOCK"
        case .refreshLock: "REFRESH_LOCK"
        case .getLock: "GET_LOCK"
        case .putRelativeFile: "PUT_RELATIVE"
        case .renameFile: "RENAME_FILE"
        case .deleteFile: "DELETE"
        case .putUserInfo: "PUT_USER_INFO"
        case .createChildContainer: "CREATE_CHILD_CONTAINER"
        case .createChildFile: "CREATE_CHILD_FILE"
        case .deleteContainer: "DELETE_CONTAINER"
        case .renameContainer: "RENAME_CONTAINER"
        case .getShareUrl: "GET_SHARE_URL"
        case .addActivities: "ADD_ACTIVITIES"
        case .lockUserVisible: "LOCK"
        case .renameFileCoauth: "RENAME_FILE"
        case .getCoauthLock: "GET_COAUTH_LOCK"
        case .refreshCoauthLock: "REFRESH_COAUTH_LOCK"
        case .unlockCoauthLock: "UNLOCK_COAUTH_LOCK"
        case .getCoauthTable: "GET_COAUTH_TABLE"
        case .getChunkedFile: "GET_CHUNKED_FILE"
        case .putChunkedFile: "PUT_CHUNKED_FILE"
        default: nil
        }
    }

    /// The request body, when the request has one.
    var body: [UInt8]? {
        switch self {
        case .putFile(_, let document), .putRelativeFile(_, _, let document): document.bytes
        case .putUserInfo(let info): Array(info.utf8)
        case .addActivities(let json): Array(json.utf8)
        case .getCoauthLock(_, _, _, _, let metadata?), .refreshCoauthLock(_, _, _, let metadata?):
            Array(#"{"CoauthLockMetadata":"\#(metadata)"}"#.utf8)
        case .getChunkedFile(let properties, let filters): ChunkedFilter.body(properties: properties, filters)
        case .putChunkedFile(_, _, _, let properties, let streams): ChunkedStream.body(properties: properties, streams)
        default: nil
        }
    }

    /// `X-WOPI-CoauthLockMetadata` (when set), `X-WOPI-CoauthLockId` and `X-WOPI-CoauthLockExpirationTimeout`, in
    /// the validator's order.
    private static func coauthHeaders(id: String?, timeout: Int?, metadata: String?) -> [(String, String)] {
        var headers: [(String, String)] = []
        if let metadata { headers.append(("X-WOPI-CoauthLockMetadata", metadata)) }
        if let id { headers.append(("X-WOPI-CoauthLockId", id)) }
        if let timeout { headers.append(("X-WOPI-CoauthLockExpirationTimeout", String(timeout))) }
        return headers
    }

    private static func targetHeaders(_ mode: TargetMode, name: String) -> [(String, String)] {
        let encoded = DotNetUTF7.encodeForTargetHeader(name)
        switch mode {
        case .suggested:
            return [("X-WOPI-SuggestedTarget", encoded)]
        case .exactName(let overwrite):
            // .NET's bool.ToString(): "True" / "False".
            return [("X-WOPI-RelativeTarget", encoded)]
                + (overwrite.map { [("X-WOPI-OverwriteRelativeTarget", $0 ? "True" : "False")] } ?? [])
        case .conflicting:
            return [("X-WOPI-SuggestedTarget", encoded), ("X-WOPI-RelativeTarget", encoded)]
        }
    }
}
