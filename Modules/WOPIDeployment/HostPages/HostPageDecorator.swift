public import WOPIModels
public import WOPIServer
public import WOPIStorage

/// Points Office for the web at the host pages from CheckFileInfo (`HostViewUrl`, `HostEditUrl`, `CloseUrl`,
/// `DownloadUrl`, `FileSharingUrl`, `PostMessageOrigin`, and `FileVersionUrl` where the storage keeps versions) and
/// asks for the PostMessages the host page handles.
public struct HostPageDecorator: InfoDecorator {
    /// The pages' base URL.
    public let base: PublicBaseURL
    /// Whether the storage keeps versions (it is a `VersionedStorage`): CheckFileInfo then names the versions view
    /// (`FileVersionUrl`).
    public var keepsVersions = false

    /// CheckFileInfo pointing at the pages below `base`.
    public init(base: PublicBaseURL) { self.base = base }

    public func decorate(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) {
        guard let base = base.url else { return }
        let pages = HostPageURLs(base: base)
        info.hostViewURL = pages.open(file.id, action: "view")
        info.hostEditURL = access.canWrite ? pages.open(file.id, action: "edit") : nil
        info.closeURL = pages.files(in: file.parentID)
        info.downloadURL = access.permission >= .view ? pages.download(file.id) : nil  // not a secure viewer
        if keepsVersions { info.fileVersionURL = pages.versions(file.id) }
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
