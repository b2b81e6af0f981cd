public import WOPIModels
public import WOPIServer
public import WOPIStorage

/// The policy of a host with pages for Office for the web: `inner` decides who may do what (the owner plus
/// shares), and CheckFileInfo points Office for the web at the pages (`HostViewUrl`, `HostEditUrl`, `CloseUrl`,
/// `DownloadUrl`, `FileSharingUrl`, `PostMessageOrigin`) and asks for the PostMessages the host page handles.
public struct HostPagePolicy: ShareDecidedAccessPolicy {
    /// The pages' base URL.
    public let base: PublicBaseURL
    /// The policy that decides access.
    public let inner: any AccessPolicy

    /// `inner`, with CheckFileInfo pointing at the pages below `base`.
    public init(base: PublicBaseURL, inner: any AccessPolicy) {
        self.base = base
        self.inner = inner
    }

    public func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
        try await inner.access(of: user, to: item)
    }

    public func access(of user: WOPIUser, to items: [StorageItem]) async throws -> [ItemAccess] {
        try await inner.access(of: user, to: items)
    }

    /// What `inner` decides from the shares on the item's path, when it decides from them (`nil` otherwise).
    public func access(of user: WOPIUser, to item: StorageItem, sharesOnPath: [ItemID: Permission]) async throws
        -> ItemAccess?
    {
        try await (inner as? any ShareDecidedAccessPolicy)?.access(of: user, to: item, sharesOnPath: sharesOnPath)
    }

    public func sharedItems(with user: WOPIUser) async throws -> [StorageItem] {
        try await inner.sharedItems(with: user)
    }

    public func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
        try await inner.willChange(change, by: user)
    }

    public func describe(
        container: ContainerMetadata, _ info: inout CheckContainerInfo, user: WOPIUser, access: ItemAccess
    ) async throws {
        try await inner.describe(container: container, &info, user: user, access: access)
    }

    public func describe(ecosystem info: inout CheckEcosystemResponse, user: WOPIUser) async throws {
        try await inner.describe(ecosystem: &info, user: user)
    }

    public func describe(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess)
        async throws
    {
        try await inner.describe(file: file, &info, user: user, access: access)
        guard let base = base.url else { return }
        let pages = HostPageURLs(base: base)
        info.hostViewURL = pages.open(file.id, action: "view")
        info.hostEditURL = access.canWrite ? pages.open(file.id, action: "edit") : nil
        info.closeURL = pages.files(in: file.parentID)
        info.downloadURL = pages.download(file.id)
        info.fileSharingURL = pages.open(file.id, action: "view")
        info.postMessageOrigin = base
        info.closePostMessage = true
        info.editModePostMessage = true
        info.editNotificationPostMessage = true
        info.fileSharingPostMessage = true
        info.fileVersionPostMessage = true
        info.breadcrumbBrandName = "WOPIKit"
        info.breadcrumbBrandURL = pages.files(in: nil)
        info.breadcrumbFolderURL = pages.files(in: file.parentID)
    }
}

/// The URLs of the host pages below a base URL: the one place they are built.
public struct HostPageURLs: Sendable {
    /// The base URL the pages live below.
    public let base: String

    /// The pages below `base`.
    public init(base: String) { self.base = base }

    /// The page that opens a file in the WOPI client (`view`, `edit` or `editnew`).
    public func open(_ id: ItemID, action: String) -> String { "\(base)/open/\(id)?action=\(action)" }
    /// The file list of a container (the user's root when `nil`).
    public func files(in container: ItemID?) -> String {
        "\(base)/files" + (container.map { "?container=\($0)" } ?? "")
    }
    /// The end of an editing session the host page opened (`session` is the page's own value), then the file's
    /// folder.
    public func close(_ id: ItemID, session: String) -> String { "\(base)/close/\(id)?session=\(session)" }
    /// The download of a file's current content.
    public func download(_ id: ItemID) -> String { "\(base)/download/\(id)" }
}
