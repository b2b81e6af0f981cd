import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

/// One WOPI request, routed once: its path, method and `X-WOPI-Override` together name exactly one operation
/// (Docs/wopi-protocol.md §2.1 for the paths, §4–§9 for the operations).
///
/// ``WOPIHost`` parses a request into an operation, authorizes the operation's ``resource`` (reading its item
/// once), and performs it in one exhaustive `switch`. Adding an operation is a case here, its line in
/// ``init(_:)`` and its line in `WOPIHost.perform`; the compiler finds every place that must know of it.
enum WOPIOperation: Equatable, Sendable {
    // MARK: Files
    case checkFileInfo(ItemID)
    case getFile(ItemID)
    case putFile(ItemID)
    case lock(ItemID)
    case unlockAndRelock(ItemID, oldLock: String)
    case refreshLock(ItemID)
    case unlock(ItemID)
    case getLock(ItemID)
    case putRelativeFile(ItemID)
    case renameFile(ItemID)
    case deleteFile(ItemID)
    case putUserInfo(ItemID)
    case getFileShareURL(ItemID)
    case addActivities(ItemID)
    case enumerateFileAncestors(ItemID)
    case getFileEcosystem(ItemID)
    /// A download from CheckFileInfo's `FileUrl`: no access token and no proof (``FileURLs``).
    case getFromFileURL(ItemID)
    /// The template of a new empty file (CheckFileInfo's `TemplateSource`).
    case getTemplate(ItemID)
    /// GetCoauthLock, RefreshCoauthLock or UnlockCoauthLock (CSPP Plus; 501 unless co-authoring is configured).
    case changeCoauthLock(ItemID, CoauthChange)
    /// GetCoauthTable (CSPP Plus; 501 unless co-authoring is configured).
    case getCoauthTable(ItemID)
    /// GetChunkedFile, PutChunkedFile, GetChunks, GetSequenceNumber, CreateUploadSession or UpdateUploadSession
    /// (CSPP Plus incremental file transfer; 501 unless co-authoring is configured).
    case chunkedTransfer(ItemID, ChunkedTransfer)

    // MARK: Containers ("Shared with me" included, by its ID)
    case checkContainerInfo(ItemID)
    case createChildContainer(ItemID)
    case createChildFile(ItemID)
    case deleteContainer(ItemID)
    case renameContainer(ItemID)
    case getContainerShareURL(ItemID)
    case enumerateChildren(ItemID)
    case enumerateContainerAncestors(ItemID)
    case getContainerEcosystem(ItemID)

    // MARK: Ecosystem
    case checkEcosystem
    case getRootContainer
    case getFileWopiSrc

    // MARK: Bootstrapper
    /// Bootstrap, with the shortcut of `X-WOPI-EcosystemOperation` on a POST (`nil` for none).
    case bootstrap(shortcut: String?)

    // MARK: Refusals
    /// A WOPI-shaped path whose item ID is not a valid ID: after the token is checked, 404.
    case unknownItem
    /// A path this host knows with a method or override it does not: after the token is checked, 501.
    case unsupported(AccessToken.Resource, description: String)

    /// The coauth-lock operations that change a file's coauth table.
    enum CoauthChange: Equatable, Sendable {
        case get, refresh, unlock

        /// The `X-WOPI-Override` value.
        var override: String {
            switch self {
            case .get: WOPIOverride.getCoauthLock
            case .refresh: WOPIOverride.refreshCoauthLock
            case .unlock: WOPIOverride.unlockCoauthLock
            }
        }
    }

    /// The incremental-file-transfer operations (CSPP Plus).
    enum ChunkedTransfer: Equatable, Sendable {
        case getChunkedFile, putChunkedFile, getChunks, getSequenceNumber
        /// CreateUploadSession and UpdateUploadSession (resumable file transfer).
        case createUploadSession, updateUploadSession

        /// The `X-WOPI-Override` value.
        var override: String {
            switch self {
            case .getChunkedFile: WOPIOverride.getChunkedFile
            case .putChunkedFile: WOPIOverride.putChunkedFile
            case .getChunks: WOPIOverride.getChunks
            case .getSequenceNumber: WOPIOverride.getSequenceNumber
            case .createUploadSession: WOPIOverride.createUploadSession
            case .updateUploadSession: WOPIOverride.updateUploadSession
            }
        }
    }

    /// Routes `request`; `nil` when its path is not a WOPI endpoint at all (404 before any token check).
    init?(_ request: WOPIRequest) {
        guard let route = WOPIRoute(path: request.path) else { return nil }
        let post = request.method == .post
        // A GET is the operation of its path, whatever it sends in X-WOPI-Override; a POST names one with it.
        let override = post ? request.headers[.wopiOverride]?.uppercased() ?? "(none)" : nil
        guard request.method == .get || post else {
            self = .unsupported(route.resource, description: "\(request.method) on \(route.description)")
            return
        }
        /// The operation of an endpoint that only answers GET.
        func getOnly(_ operation: WOPIOperation) -> WOPIOperation {
            post ? .unsupported(route.resource, description: "POST on \(route.description)") : operation
        }
        /// A POST with an override this endpoint does not know.
        func unknown(_ override: String) -> WOPIOperation {
            .unsupported(route.resource, description: "\(override) on \(route.description)")
        }
        switch route {
        case .unknownItem:
            self = .unknownItem
        case .bootstrapper:
            self = .bootstrap(shortcut: post ? request.headers[.wopiEcosystemOperation]?.uppercased() : nil)
        case .file(let id, .info):
            switch override {
            case nil: self = .checkFileInfo(id)
            case WOPIOverride.lock:
                if let old = request.headers[.wopiOldLock] {
                    self = .unlockAndRelock(id, oldLock: old)
                } else {
                    self = .lock(id)
                }
            case WOPIOverride.refreshLock: self = .refreshLock(id)
            case WOPIOverride.unlock: self = .unlock(id)
            case WOPIOverride.getLock: self = .getLock(id)
            case WOPIOverride.putRelative: self = .putRelativeFile(id)
            case WOPIOverride.renameFile: self = .renameFile(id)
            case WOPIOverride.delete: self = .deleteFile(id)
            case WOPIOverride.putUserInfo: self = .putUserInfo(id)
            case WOPIOverride.getShareURL: self = .getFileShareURL(id)
            case WOPIOverride.addActivities: self = .addActivities(id)
            case WOPIOverride.getCoauthLock: self = .changeCoauthLock(id, .get)
            case WOPIOverride.refreshCoauthLock: self = .changeCoauthLock(id, .refresh)
            case WOPIOverride.unlockCoauthLock: self = .changeCoauthLock(id, .unlock)
            case WOPIOverride.getCoauthTable: self = .getCoauthTable(id)
            case WOPIOverride.getChunkedFile: self = .chunkedTransfer(id, .getChunkedFile)
            case WOPIOverride.getChunks: self = .chunkedTransfer(id, .getChunks)
            case WOPIOverride.getSequenceNumber: self = .chunkedTransfer(id, .getSequenceNumber)
            case WOPIOverride.createUploadSession: self = .chunkedTransfer(id, .createUploadSession)
            case WOPIOverride.updateUploadSession: self = .chunkedTransfer(id, .updateUploadSession)
            case let other?: self = unknown(other)
            }
        case .file(let id, .contents):
            switch (post, override) {
            case (false, _): self = .getFile(id)
            case (true, WOPIOverride.put): self = .putFile(id)
            case (true, WOPIOverride.putChunkedFile): self = .chunkedTransfer(id, .putChunkedFile)
            case (true, let other): self = unknown(other ?? "")
            }
        case .file(let id, .ancestry):
            self = getOnly(.enumerateFileAncestors(id))
        case .file(let id, .ecosystemPointer):
            self = getOnly(.getFileEcosystem(id))
        case .file(let id, .fileURL):
            self = getOnly(.getFromFileURL(id))
        case .file(let id, .template):
            self = getOnly(.getTemplate(id))
        case .container(let id, .info):
            switch override {
            case nil: self = .checkContainerInfo(id)
            case WOPIOverride.createChildContainer: self = .createChildContainer(id)
            case WOPIOverride.createChildFile: self = .createChildFile(id)
            case WOPIOverride.deleteContainer: self = .deleteContainer(id)
            case WOPIOverride.renameContainer: self = .renameContainer(id)
            case WOPIOverride.getShareURL: self = .getContainerShareURL(id)
            case let other?: self = unknown(other)
            }
        case .container(let id, .children):
            self = getOnly(.enumerateChildren(id))
        case .container(let id, .ancestry):
            self = getOnly(.enumerateContainerAncestors(id))
        case .container(let id, .ecosystemPointer):
            self = getOnly(.getContainerEcosystem(id))
        case .ecosystem(.info):
            switch override {
            case nil: self = .checkEcosystem
            case WOPIOverride.getWopiSrcWithAccessToken: self = .getFileWopiSrc
            case let other?: self = unknown(other)
            }
        case .ecosystem(.rootContainerPointer):
            self = getOnly(.getRootContainer)
        }
    }

    /// What the request's access token must be for; `nil` for the bootstrapper (OAuth), an unknown item (any
    /// valid token, then 404) and a `FileUrl` (its own ticket).
    var resource: AccessToken.Resource? {
        switch self {
        case .checkFileInfo(let id), .getFile(let id), .putFile(let id), .lock(let id), .unlockAndRelock(let id, _),
            .refreshLock(let id), .unlock(let id), .getLock(let id), .putRelativeFile(let id), .renameFile(let id),
            .deleteFile(let id), .putUserInfo(let id), .getFileShareURL(let id), .addActivities(let id),
            .enumerateFileAncestors(let id), .getFileEcosystem(let id), .getTemplate(let id),
            .changeCoauthLock(let id, _), .getCoauthTable(let id), .chunkedTransfer(let id, _):
            .file(id)
        case .checkContainerInfo(let id), .createChildContainer(let id), .createChildFile(let id),
            .deleteContainer(let id), .renameContainer(let id), .getContainerShareURL(let id),
            .enumerateChildren(let id), .enumerateContainerAncestors(let id), .getContainerEcosystem(let id):
            .container(id)
        case .checkEcosystem, .getRootContainer, .getFileWopiSrc:
            .ecosystem
        case .unsupported(let resource, _):
            resource
        case .bootstrap, .unknownItem, .getFromFileURL:
            nil
        }
    }
}

extension WOPIRoute {
    /// The resource a token for this path names (the ecosystem for the bootstrapper and an unknown item, whose
    /// requests never reach a resource check).
    var resource: AccessToken.Resource {
        switch self {
        case .file(let id, _): .file(id)
        case .container(let id, _): .container(id)
        case .ecosystem, .bootstrapper, .unknownItem: .ecosystem
        }
    }

    /// The endpoint, for messages: `files/contents`, `containers`, ...
    var description: String {
        switch self {
        case .file(_, let endpoint): endpoint == .info ? "files" : "files/\(endpoint.rawValue)"
        case .container(_, let endpoint): endpoint == .info ? "containers" : "containers/\(endpoint.rawValue)"
        case .ecosystem(let endpoint): endpoint == .info ? "ecosystem" : "ecosystem/\(endpoint.rawValue)"
        case .bootstrapper: "wopibootstrapper"
        case .unknownItem: "an unknown item"
        }
    }
}
