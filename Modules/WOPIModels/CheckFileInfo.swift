// This file lists every CheckFileInfo property of the protocol (Docs/wopi-protocol.md §6). Keep it in the order of
// that page's tables so a reader can check one against the other.

/// The body of a CheckFileInfo response: what a WOPI client learns about a file, the user and the host.
///
/// Every optional property is left out of the JSON when `nil` (WOPI forbids `null`). Property names follow Swift
/// style; ``CodingKeys`` maps them to the exact wire names (`BaseFileName`, `SHA256`, ...).
///
/// ```swift
/// var info = CheckFileInfo(baseFileName: "Budget.xlsx", ownerID: "u1", size: 48213, version: "v42")
/// info.supportsLocks = true let json = try WOPIJSON.encoder.encode(info)
/// ```
public struct CheckFileInfo: Codable, Sendable, Hashable {

    // MARK: Required

    /// The file name with its extension, no path, under the host's ``FileNameRules`` (Office for iOS/Android cannot show
    /// a leading `.` or the characters ``FileNameRules/officeMobile`` refuses).
    public var baseFileName: String
    /// The file's owner, unique per user and stable; alphanumeric only.
    public var ownerID: String
    /// The content size in bytes; `0` means a new, empty file.
    public var size: Int64
    /// Changes whenever the content changes and never repeats for this file.
    public var version: String
    /// The current user, unique and stable; alphanumeric only. May be left out for anonymous users.
    public var userID: String?

    // MARK: Host capabilities

    /// Lock, Unlock, RefreshLock and UnlockAndRelock are implemented.
    public var supportsLocks: Bool?
    /// GetLock is implemented.
    public var supportsGetLock: Bool?
    /// Lock IDs up to 1024 characters are accepted.
    public var supportsExtendedLockLength: Bool?
    /// PutFile and PutRelativeFile are implemented.
    public var supportsUpdate: Bool?
    /// RenameFile is implemented.
    public var supportsRename: Bool?
    /// DeleteFile is implemented.
    public var supportsDeleteFile: Bool?
    /// The container operations are implemented.
    public var supportsContainers: Bool?
    /// CheckEcosystem, GetEcosystem and GetRootContainer (ecosystem) are implemented.
    public var supportsEcosystem: Bool?
    /// GetFileWopiSrc (ecosystem) is implemented.
    public var supportsGetFileWopiSrc: Bool?
    /// PutUserInfo is implemented.
    public var supportsUserInfo: Bool?
    /// The share URL types GetShareUrl accepts: `ReadOnly`, `ReadWrite`.
    public var supportedShareURLTypes: [String]?
    /// Whether the host accepts AddActivities (comments and mentions).
    public var supportsAddActivities: Bool?
    /// OneNote's cell storage operations are implemented (not for CSPP).
    public var supportsCobalt: Bool?
    /// Deprecated folder operations are implemented.
    public var supportsFolders: Bool?
    /// Unused.
    public var supportsFileCreation: Bool?
    /// Unused.
    public var supportsScenarioLinks: Bool?
    /// Unused.
    public var supportsSecureStore: Bool?

    // MARK: User metadata

    /// The user's display name; should match the bootstrapper's `UserFriendlyName`.
    public var userFriendlyName: String?
    /// The user is not signed in.
    public var isAnonymousUser: Bool?
    /// The user is an education user. Required for Office for iOS/Android and equal to the parent container's value.
    public var isEduUser: Bool?
    /// The user is a business user who needs a Microsoft 365 subscription to edit. Required for Office for iOS/Android and equal to the parent container's value.
    public var licenseCheckForEditIsEnabled: Bool?
    /// The string last stored for this user by PutUserInfo.
    public var userInfo: String?

    // MARK: User permissions

    /// The user may change the file (PutFile).
    public var userCanWrite: Bool?
    /// The file cannot be changed by this user.
    public var readOnly: Bool?
    /// The user may rename the file.
    public var userCanRename: Bool?
    /// The user cannot create new files; PutRelativeFile answers 501.
    public var userCanNotWriteRelative: Bool?
    /// Client-specific restriction.
    public var restrictedWebViewOnly: Bool?
    /// The user may attend a broadcast (web).
    public var userCanAttend: Bool?
    /// The user may present a broadcast (web).
    public var userCanPresent: Bool?

    // MARK: File URLs

    /// Host page that loads the `edit` action.
    public var hostEditURL: String?
    /// Host page that loads the `view` action.
    public var hostViewURL: String?
    /// Embeddable view page.
    public var hostEmbeddedViewURL: String?
    /// Unused.
    public var hostEmbeddedEditURL: String?
    /// Where to go on close or on a fatal error.
    public var closeURL: String?
    /// Downloads the latest version directly.
    public var downloadURL: String?
    /// Sharing UI.
    public var fileSharingURL: String?
    /// Version history UI.
    public var fileVersionURL: String?
    /// UI that creates an embed URL.
    public var fileEmbedCommandURL: String?
    /// Signs the user out.
    public var signoutURL: String?
    /// A direct download URL used as given (no token appended, never proof-signed); GetFile must still work.
    public var fileURL: String?
    /// A user-accessible URL for opening the file in a client, for example a DAV URL.
    public var clientURL: String?
    /// Unused.
    public var hostRestURL: String?
    /// Unused.
    public var signInURL: String?
    /// Unused.
    public var editAndReplyURL: String?

    // MARK: Breadcrumbs

    /// The host's brand name.
    public var breadcrumbBrandName: String?
    /// The host's home page.
    public var breadcrumbBrandURL: String?
    /// The document name shown (falls back to `BaseFileName`).
    public var breadcrumbDocName: String?
    /// The containing folder's name.
    public var breadcrumbFolderName: String?
    /// The containing folder's page.
    public var breadcrumbFolderURL: String?
    /// Deprecated.
    public var breadcrumbDocURL: String?

    // MARK: Other properties

    /// The extension, starting with `.`; clients use it instead of parsing `BaseFileName`.
    public var fileExtension: String?
    /// The longest name accepted, without the extension; absent or `0` means 250.
    public var fileNameMaxLength: Int?
    /// UTC ISO 8601 round-trip time of the last change, for example `2009-06-15T13:45:30.0000000Z`.
    public var lastModifiedTime: String?
    /// Base64 of the SHA-256 digest of the content.
    public var sha256: String?
    /// An alternative to `SHA256` (not supported in CSPP).
    public var uniqueContentID: String?
    /// The host cannot accept writes right now.
    public var temporarilyNotWritable: Bool?
    /// Printing is turned off.
    public var disablePrint: Bool?
    /// Translation is turned off.
    public var disableTranslation: Bool?
    /// Client feature switch.
    public var allowAdditionalMicrosoftServices: Bool?
    /// Client feature switch.
    public var allowErrorReportPrompt: Bool?
    /// Client feature switch.
    public var allowExternalMarketplace: Bool?
    /// Client feature switch.
    public var closeButtonClosesWindow: Bool?
    /// `Normal`, `Minor`, `Medium`, `Major` or `Critical`.
    public var requestedCallThrottling: String?
    /// `MostProtected`, `Protected`, `Normal`, `LessProtected` or `LeastProtected`.
    public var clientThrottlingProtection: String?
    /// Pre-release: `BlockAll` or `CurrentDocumentOnly`.
    public var copyPasteRestrictions: String?
    /// Pre-release: `Private` or `Shared`. Forbidden by the validator's CSPP schema; leave it `nil` for CSPP.
    public var sharingStatus: String?
    /// Pre-release (web).
    public var workflowType: [String]?
    /// Pre-release (web).
    public var workflowURL: String?
    /// Pre-release (web).
    public var workflowPostMessage: Bool?
    /// Unused.
    public var hostNotes: String?
    /// Unused.
    public var timeZone: String?
    /// Unused.
    public var tenantID: String?
    /// Unused.
    public var presenceProvider: String?
    /// Unused.
    public var presenceUserID: String?
    /// Unused.
    public var userPrincipalName: String?
    /// Unused; use `UserId`.
    public var hostAuthenticationID: String?
    /// Unused.
    public var irmPolicyDescription: String?
    /// Unused.
    public var irmPolicyTitle: String?
    /// Unused.
    public var protectInClient: Bool?
    /// Unused.
    public var webEditingDisabled: Bool?
    /// Unused.
    public var disableBrowserCachingOfUserContent: Bool?
    /// Deprecated.
    public var editingCannotSave: Bool?
    /// Deprecated.
    public var hostName: String?
    /// Deprecated.
    public var privacyURL: String?
    /// Deprecated.
    public var termsOfUseURL: String?
    /// CSPP Plus: the host implements the co-authoring extensions (coauth locks, chunked transfer). Forbidden by the
    /// validator's CSPP schema, so a CSPP host never sends it.
    public var supportsCoauth: Bool?

    // MARK: CSPP Plus (co-authoring; sent only by a host configured for it)

    /// `SequenceNumber`: the sequence number of the file's content.
    public var sequenceNumber: Int64?
    /// `SupportsChunkedFileTransfer`: the host answers GetChunkedFile, PutChunkedFile, GetChunks and
    /// GetSequenceNumber.
    public var supportsChunkedFileTransfer: Bool?
    /// `SupportsResumableFileTransfer`: the host answers CreateUploadSession and UpdateUploadSession, and commits
    /// an upload session through PutChunkedFile's `UploadSessionTokenToCommit`.
    public var supportsResumableFileTransfer: Bool?
    /// `RealTimeChannelEndpointUrl`: the real-time channel endpoint (discovery's `rtc`).
    public var realTimeChannelEndpointURL: String?
    /// `OfficeCollaborationServiceEndpointUrl`: the collaboration service endpoint (discovery's `collab`).
    public var officeCollaborationServiceEndpointURL: String?
    /// `AccessTokenExpiry`: when the access token expires, in milliseconds since 1970 (UTC).
    public var accessTokenExpiry: Int64?
    /// `ServerTime`: the host's time, in milliseconds since 1970 (UTC).
    public var serverTime: Int64?
    /// `FileGeoLocationCode`: where the file is stored.
    public var fileGeoLocationCode: String?

    // MARK: PostMessage (Office for the web)

    /// The host page's origin for PostMessage.
    public var postMessageOrigin: String?
    /// Send a PostMessage on close.
    public var closePostMessage: Bool?
    /// Send a PostMessage on switching to edit.
    public var editModePostMessage: Bool?
    /// Send a PostMessage on edits.
    public var editNotificationPostMessage: Bool?
    /// Send a PostMessage for sharing.
    public var fileSharingPostMessage: Bool?
    /// Send a PostMessage for version history.
    public var fileVersionPostMessage: Bool?
    /// Send a PostMessage for embedding.
    public var fileEmbedCommandPostMessage: Bool?
    /// Send a PostMessage on app state changes.
    public var appStateHistoryPostMessage: Bool?

    // MARK: Other WOPI clients (Collabora Online, ONLYOFFICE; Docs/office-for-the-web.md lists who reads what)

    /// `EnableOwnerTermination` (Collabora Online): the file's owner may end the editing session for everyone.
    public var enableOwnerTermination: Bool?
    /// `HidePrintOption` (Collabora Online): hide the print command (printing stays possible through the
    /// browser; ``disablePrint`` turns it off).
    public var hidePrintOption: Bool?
    /// `HideSaveOption` (Collabora Online): hide the save command (the client still saves automatically).
    public var hideSaveOption: Bool?
    /// `HideExportOption` (Collabora Online): hide the download-as / export commands.
    public var hideExportOption: Bool?
    /// `DisableExport` (Collabora Online): turn export and download off entirely.
    public var disableExport: Bool?
    /// `DisableCopy` (Collabora Online): keep copied content inside the document.
    public var disableCopy: Bool?
    /// `WatermarkText` (Collabora Online): a text drawn over every page, for example the user's e-mail address.
    public var watermarkText: String?
    /// `UserCanReview` (ONLYOFFICE): the user may edit only in review (track changes) mode.
    public var userCanReview: Bool?
    /// `SupportsReviewing` (ONLYOFFICE): the host supports review mode for the file.
    public var supportsReviewing: Bool?
    /// `UserCanOnlyComment` (Collabora Online, ONLYOFFICE): the user may comment but not change the content.
    public var userCanOnlyComment: Bool?
    /// `UserExtraInfo` (Collabora Online): what other editors see of the user, such as `avatar` (an image URL) and
    /// `mail`.
    public var userExtraInfo: [String: String]?
    /// `UserPrivateInfo` (Collabora Online): settings only the user's own session sees (for example API keys of
    /// integrations).
    public var userPrivateInfo: [String: String]?
    /// `IsAdminUser` (Collabora Online): the user administers the host, and may see the server's admin settings.
    public var isAdminUser: Bool?
    /// `IsUserLocked` (Collabora Online): the user's plan locks premium features.
    public var isUserLocked: Bool?
    /// `EnableShare` (Collabora Online): show a share command that posts `UI_Share` to the host page.
    public var enableShare: Bool?
    /// `TemplateSource` (Collabora Online, ONLYOFFICE): the URL of a template the editor loads in place of the empty
    /// file's content; its first save is a normal PutFile.
    public var templateSource: String?

    /// Creates a CheckFileInfo body with the required properties; set the others as needed.
    public init(baseFileName: String, ownerID: String, size: Int64, version: String) {
        self.baseFileName = baseFileName
        self.ownerID = ownerID
        self.size = size
        self.version = version
    }

    /// The wire names of the properties.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case baseFileName = "BaseFileName"
        case ownerID = "OwnerId"
        case size = "Size"
        case version = "Version"
        case userID = "UserId"
        case supportsLocks = "SupportsLocks"
        case supportsGetLock = "SupportsGetLock"
        case supportsExtendedLockLength = "SupportsExtendedLockLength"
        case supportsUpdate = "SupportsUpdate"
        case supportsRename = "SupportsRename"
        case supportsDeleteFile = "SupportsDeleteFile"
        case supportsContainers = "SupportsContainers"
        case supportsEcosystem = "SupportsEcosystem"
        case supportsGetFileWopiSrc = "SupportsGetFileWopiSrc"
        case supportsUserInfo = "SupportsUserInfo"
        case supportedShareURLTypes = "SupportedShareUrlTypes"
        case supportsAddActivities = "SupportsAddActivities"
        case supportsCobalt = "SupportsCobalt"
        case supportsFolders = "SupportsFolders"
        case supportsFileCreation = "SupportsFileCreation"
        case supportsScenarioLinks = "SupportsScenarioLinks"
        case supportsSecureStore = "SupportsSecureStore"
        case userFriendlyName = "UserFriendlyName"
        case isAnonymousUser = "IsAnonymousUser"
        case isEduUser = "IsEduUser"
        case licenseCheckForEditIsEnabled = "LicenseCheckForEditIsEnabled"
        case userInfo = "UserInfo"
        case userCanWrite = "UserCanWrite"
        case readOnly = "ReadOnly"
        case userCanRename = "UserCanRename"
        case userCanNotWriteRelative = "UserCanNotWriteRelative"
        case restrictedWebViewOnly = "RestrictedWebViewOnly"
        case userCanAttend = "UserCanAttend"
        case userCanPresent = "UserCanPresent"
        case hostEditURL = "HostEditUrl"
        case hostViewURL = "HostViewUrl"
        case hostEmbeddedViewURL = "HostEmbeddedViewUrl"
        case hostEmbeddedEditURL = "HostEmbeddedEditUrl"
        case closeURL = "CloseUrl"
        case downloadURL = "DownloadUrl"
        case fileSharingURL = "FileSharingUrl"
        case fileVersionURL = "FileVersionUrl"
        case fileEmbedCommandURL = "FileEmbedCommandUrl"
        case signoutURL = "SignoutUrl"
        case fileURL = "FileUrl"
        case clientURL = "ClientUrl"
        case hostRestURL = "HostRestUrl"
        case signInURL = "SignInUrl"
        case editAndReplyURL = "EditAndReplyUrl"
        case breadcrumbBrandName = "BreadcrumbBrandName"
        case breadcrumbBrandURL = "BreadcrumbBrandUrl"
        case breadcrumbDocName = "BreadcrumbDocName"
        case breadcrumbFolderName = "BreadcrumbFolderName"
        case breadcrumbFolderURL = "BreadcrumbFolderUrl"
        case breadcrumbDocURL = "BreadcrumbDocUrl"
        case fileExtension = "FileExtension"
        case fileNameMaxLength = "FileNameMaxLength"
        case lastModifiedTime = "LastModifiedTime"
        case sha256 = "SHA256"
        case uniqueContentID = "UniqueContentId"
        case temporarilyNotWritable = "TemporarilyNotWritable"
        case disablePrint = "DisablePrint"
        case disableTranslation = "DisableTranslation"
        case allowAdditionalMicrosoftServices = "AllowAdditionalMicrosoftServices"
        case allowErrorReportPrompt = "AllowErrorReportPrompt"
        case allowExternalMarketplace = "AllowExternalMarketplace"
        case closeButtonClosesWindow = "CloseButtonClosesWindow"
        case requestedCallThrottling = "RequestedCallThrottling"
        case clientThrottlingProtection = "ClientThrottlingProtection"
        case copyPasteRestrictions = "CopyPasteRestrictions"
        case sharingStatus = "SharingStatus"
        case workflowType = "WorkflowType"
        case workflowURL = "WorkflowUrl"
        case workflowPostMessage = "WorkflowPostMessage"
        case hostNotes = "HostNotes"
        case timeZone = "TimeZone"
        case tenantID = "TenantId"
        case presenceProvider = "PresenceProvider"
        case presenceUserID = "PresenceUserId"
        case userPrincipalName = "UserPrincipalName"
        case hostAuthenticationID = "HostAuthenticationId"
        case irmPolicyDescription = "IrmPolicyDescription"
        case irmPolicyTitle = "IrmPolicyTitle"
        case protectInClient = "ProtectInClient"
        case webEditingDisabled = "WebEditingDisabled"
        case disableBrowserCachingOfUserContent = "DisableBrowserCachingOfUserContent"
        case editingCannotSave = "EditingCannotSave"
        case hostName = "HostName"
        case privacyURL = "PrivacyUrl"
        case termsOfUseURL = "TermsOfUseUrl"
        case supportsCoauth = "SupportsCoauth"
        case supportsChunkedFileTransfer = "SupportsChunkedFileTransfer"
        case supportsResumableFileTransfer = "SupportsResumableFileTransfer"
        case sequenceNumber = "SequenceNumber"
        case realTimeChannelEndpointURL = "RealTimeChannelEndpointUrl"
        case officeCollaborationServiceEndpointURL = "OfficeCollaborationServiceEndpointUrl"
        case accessTokenExpiry = "AccessTokenExpiry"
        case serverTime = "ServerTime"
        case fileGeoLocationCode = "FileGeoLocationCode"
        case postMessageOrigin = "PostMessageOrigin"
        case closePostMessage = "ClosePostMessage"
        case editModePostMessage = "EditModePostMessage"
        case editNotificationPostMessage = "EditNotificationPostMessage"
        case fileSharingPostMessage = "FileSharingPostMessage"
        case fileVersionPostMessage = "FileVersionPostMessage"
        case fileEmbedCommandPostMessage = "FileEmbedCommandPostMessage"
        case appStateHistoryPostMessage = "AppStateHistoryPostMessage"
        case enableOwnerTermination = "EnableOwnerTermination"
        case hidePrintOption = "HidePrintOption"
        case hideSaveOption = "HideSaveOption"
        case hideExportOption = "HideExportOption"
        case disableExport = "DisableExport"
        case disableCopy = "DisableCopy"
        case watermarkText = "WatermarkText"
        case userCanReview = "UserCanReview"
        case supportsReviewing = "SupportsReviewing"
        case userCanOnlyComment = "UserCanOnlyComment"
        case userExtraInfo = "UserExtraInfo"
        case userPrivateInfo = "UserPrivateInfo"
        case isAdminUser = "IsAdminUser"
        case isUserLocked = "IsUserLocked"
        case enableShare = "EnableShare"
        case templateSource = "TemplateSource"
    }
}
