import WOPIModels
import WOPIServer
import WOPIStorage

/// The example host's policy when it serves Office for the web: `inner` decides who may do what (the owner plus
/// shares), and CheckFileInfo points Office for the web at the pages (`HostViewUrl`, `HostEditUrl`, `CloseUrl`,
/// `DownloadUrl`, `FileSharingUrl`, `PostMessageOrigin`) and asks for the PostMessages the host page handles.
struct HostPagePolicy: AccessPolicy {
    let base: PublicBaseURL
    let inner: any AccessPolicy

    func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
        try await inner.access(of: user, to: item)
    }

    func access(of user: WOPIUser, to items: [StorageItem]) async throws -> [ItemAccess] {
        try await inner.access(of: user, to: items)
    }

    func sharedItems(with user: WOPIUser) async throws -> [StorageItem] {
        try await inner.sharedItems(with: user)
    }

    func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
        try await inner.willChange(change, by: user)
    }

    func describe(
        container: ContainerMetadata, _ info: inout CheckContainerInfo, user: WOPIUser, access: ItemAccess
    ) async throws {
        try await inner.describe(container: container, &info, user: user, access: access)
    }

    func describe(ecosystem info: inout CheckEcosystemResponse, user: WOPIUser) async throws {
        try await inner.describe(ecosystem: &info, user: user)
    }

    func describe(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) async throws {
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
struct HostPageURLs: Sendable {
    let base: String

    /// The page that opens a file in the WOPI client (`view`, `edit` or `editnew`).
    func open(_ id: ItemID, action: String) -> String { "\(base)/open/\(id)?action=\(action)" }
    /// The file list of a container (the user's root when `nil`).
    func files(in container: ItemID?) -> String { "\(base)/files" + (container.map { "?container=\($0)" } ?? "") }
    /// The download of a file's current content.
    func download(_ id: ItemID) -> String { "\(base)/download/\(id)" }
}
