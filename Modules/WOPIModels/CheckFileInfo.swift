// This file lists every CheckFileInfo property of the protocol (Docs/wopi-protocol.md §6). Keep it in the order of
// that page's tables so a reader can check one against the other.

/// The body of a CheckFileInfo response: what a WOPI client learns about a file, the user and the host.
///
/// Every optional property is left out of the JSON when `nil` (WOPI forbids `null`). Property names follow Swift
/// style; ``CodingKeys`` maps them to the exact wire names (`BaseFileName`, `SHA256`, ...).
///
/// Each property's line ends with its wire name; `scripts/generate-check-file-info.py` (`make generate`) writes
/// ``CodingKeys`` and the host's direct JSON writer from those lines, so a new property is written here only.
///
/// ```swift
/// var info = CheckFileInfo(baseFileName: "Budget.xlsx", ownerID: "u1", size: 48213, version: "v42")
/// info.supportsLocks = true let json = try WOPIJSON.encoder.encode(info)
/// ```
public struct CheckFileInfo: Codable, Sendable, Hashable {

    // MARK: Required

    /// The file name with its extension, no path, under the host's ``FileNameRules`` (Office for iOS/Android cannot show
    /// a leading `.` or the characters ``FileNameRules/officeMobile`` refuses).
    public var baseFileName: String  // BaseFileName
    /// The file's owner, unique per user and stable; alphanumeric only.
    public var ownerID: String  // OwnerId
    /// The content size in bytes; `0` means a new, empty file.
    public var size: Int64  // Size
    /// Changes whenever the content changes and never repeats for this file.
    public var version: String  // Version
    /// The current user, unique and stable; alphanumeric only. May be left out for anonymous users.
    public var userID: String?  // UserId

    // MARK: Host capabilities

    /// Lock, Unlock, RefreshLock and UnlockAndRelock are implemented.
    public var supportsLocks: Bool?  // SupportsLocks
    /// GetLock is implemented.
    public var supportsGetLock: Bool?  // SupportsGetLock
    /// Lock IDs up to 1024 characters are accepted.
    public var supportsExtendedLockLength: Bool?  // SupportsExtendedLockLength
    /// PutFile and PutRelativeFile are implemented.
    public var supportsUpdate: Bool?  // SupportsUpdate
    /// RenameFile is implemented.
    public var supportsRename: Bool?  // SupportsRename
    /// DeleteFile is implemented.
    public var supportsDeleteFile: Bool?  // SupportsDeleteFile
    /// The container operations are implemented.
    public var supportsContainers: Bool?  // SupportsContainers
    /// CheckEcosystem, GetEcosystem and GetRootContainer (ecosystem) are implemented.
    public var supportsEcosystem: Bool?  // SupportsEcosystem
    /// GetFileWopiSrc (ecosystem) is implemented.
    public var supportsGetFileWopiSrc: Bool?  // SupportsGetFileWopiSrc
    /// PutUserInfo is implemented.
    public var supportsUserInfo: Bool?  // SupportsUserInfo
    /// The share URL types GetShareUrl accepts: `ReadOnly`, `ReadWrite`.
    public var supportedShareURLTypes: [String]?  // SupportedShareUrlTypes
    /// Whether the host accepts AddActivities (comments and mentions).
    public var supportsAddActivities: Bool?  // SupportsAddActivities
    /// OneNote's cell storage operations are implemented (not for CSPP).
    public var supportsCobalt: Bool?  // SupportsCobalt
    /// Deprecated folder operations are implemented.
    public var supportsFolders: Bool?  // SupportsFolders
    /// Unused.
    public var supportsFileCreation: Bool?  // SupportsFileCreation
    /// Unused.
    public var supportsScenarioLinks: Bool?  // SupportsScenarioLinks
    /// Unused.
    public var supportsSecureStore: Bool?  // SupportsSecureStore

    // MARK: User metadata

    /// The user's display name; should match the bootstrapper's `UserFriendlyName`.
    public var userFriendlyName: String?  // UserFriendlyName
    /// The user is not signed in.
    public var isAnonymousUser: Bool?  // IsAnonymousUser
    /// The user is an education user. Required for Office for iOS/Android and equal to the parent container's value.
    public var isEduUser: Bool?  // IsEduUser
    /// The user is a business user who needs a Microsoft 365 subscription to edit. Required for Office for iOS/Android and equal to the parent container's value.
    public var licenseCheckForEditIsEnabled: Bool?  // LicenseCheckForEditIsEnabled
    /// The string last stored for this user by PutUserInfo.
    public var userInfo: String?  // UserInfo

    // MARK: User permissions

    /// The user may change the file (PutFile).
    public var userCanWrite: Bool?  // UserCanWrite
    /// The file cannot be changed by this user.
    public var readOnly: Bool?  // ReadOnly
    /// The user may rename the file.
    public var userCanRename: Bool?  // UserCanRename
    /// The user cannot create new files; PutRelativeFile answers 501.
    public var userCanNotWriteRelative: Bool?  // UserCanNotWriteRelative
    /// Client-specific restriction.
    public var restrictedWebViewOnly: Bool?  // RestrictedWebViewOnly
    /// The user may attend a broadcast (web).
    public var userCanAttend: Bool?  // UserCanAttend
    /// The user may present a broadcast (web).
    public var userCanPresent: Bool?  // UserCanPresent

    // MARK: File URLs

    /// Host page that loads the `edit` action.
    public var hostEditURL: String?  // HostEditUrl
    /// Host page that loads the `view` action.
    public var hostViewURL: String?  // HostViewUrl
    /// Embeddable view page.
    public var hostEmbeddedViewURL: String?  // HostEmbeddedViewUrl
    /// Unused.
    public var hostEmbeddedEditURL: String?  // HostEmbeddedEditUrl
    /// Where to go on close or on a fatal error.
    public var closeURL: String?  // CloseUrl
    /// Downloads the latest version directly.
    public var downloadURL: String?  // DownloadUrl
    /// Sharing UI.
    public var fileSharingURL: String?  // FileSharingUrl
    /// Version history UI.
    public var fileVersionURL: String?  // FileVersionUrl
    /// UI that creates an embed URL.
    public var fileEmbedCommandURL: String?  // FileEmbedCommandUrl
    /// Signs the user out.
    public var signoutURL: String?  // SignoutUrl
    /// A direct download URL used as given (no token appended, never proof-signed); GetFile must still work.
    public var fileURL: String?  // FileUrl
    /// A user-accessible URL for opening the file in a client, for example a DAV URL.
    public var clientURL: String?  // ClientUrl
    /// Unused.
    public var hostRestURL: String?  // HostRestUrl
    /// Unused.
    public var signInURL: String?  // SignInUrl
    /// Unused.
    public var editAndReplyURL: String?  // EditAndReplyUrl

    // MARK: Breadcrumbs

    /// The host's brand name.
    public var breadcrumbBrandName: String?  // BreadcrumbBrandName
    /// The host's home page.
    public var breadcrumbBrandURL: String?  // BreadcrumbBrandUrl
    /// The document name shown (falls back to `BaseFileName`).
    public var breadcrumbDocName: String?  // BreadcrumbDocName
    /// The containing folder's name.
    public var breadcrumbFolderName: String?  // BreadcrumbFolderName
    /// The containing folder's page.
    public var breadcrumbFolderURL: String?  // BreadcrumbFolderUrl
    /// Deprecated.
    public var breadcrumbDocURL: String?  // BreadcrumbDocUrl

    // MARK: Other properties

    /// The extension, starting with `.`; clients use it instead of parsing `BaseFileName`.
    public var fileExtension: String?  // FileExtension
    /// The longest name accepted, without the extension; absent or `0` means 250.
    public var fileNameMaxLength: Int?  // FileNameMaxLength
    /// UTC ISO 8601 round-trip time of the last change, for example `2009-06-15T13:45:30.0000000Z`.
    public var lastModifiedTime: String?  // LastModifiedTime
    /// Base64 of the SHA-256 digest of the content.
    public var sha256: String?  // SHA256
    /// An alternative to `SHA256` (not supported in CSPP).
    public var uniqueContentID: String?  // UniqueContentId
    /// The host cannot accept writes right now.
    public var temporarilyNotWritable: Bool?  // TemporarilyNotWritable
    /// Printing is turned off.
    public var disablePrint: Bool?  // DisablePrint
    /// Translation is turned off.
    public var disableTranslation: Bool?  // DisableTranslation
    /// Client feature switch.
    public var allowAdditionalMicrosoftServices: Bool?  // AllowAdditionalMicrosoftServices
    /// Client feature switch.
    public var allowErrorReportPrompt: Bool?  // AllowErrorReportPrompt
    /// Client feature switch.
    public var allowExternalMarketplace: Bool?  // AllowExternalMarketplace
    /// Client feature switch.
    public var closeButtonClosesWindow: Bool?  // CloseButtonClosesWindow
    /// `Normal`, `Minor`, `Medium`, `Major` or `Critical`.
    public var requestedCallThrottling: String?  // RequestedCallThrottling
    /// `MostProtected`, `Protected`, `Normal`, `LessProtected` or `LeastProtected`.
    public var clientThrottlingProtection: String?  // ClientThrottlingProtection
    /// Pre-release: `BlockAll` or `CurrentDocumentOnly`.
    public var copyPasteRestrictions: String?  // CopyPasteRestrictions
    /// Pre-release: `Private` or `Shared`. Forbidden by the validator's CSPP schema; leave it `nil` for CSPP.
    public var sharingStatus: String?  // SharingStatus
    /// Pre-release (web).
    public var workflowType: [String]?  // WorkflowType
    /// Pre-release (web).
    public var workflowURL: String?  // WorkflowUrl
    /// Pre-release (web).
    public var workflowPostMessage: Bool?  // WorkflowPostMessage
    /// Unused.
    public var hostNotes: String?  // HostNotes
    /// Unused.
    public var timeZone: String?  // TimeZone
    /// Unused.
    public var tenantID: String?  // TenantId
    /// Unused.
    public var presenceProvider: String?  // PresenceProvider
    /// Unused.
    public var presenceUserID: String?  // PresenceUserId
    /// Unused.
    public var userPrincipalName: String?  // UserPrincipalName
    /// Unused; use `UserId`.
    public var hostAuthenticationID: String?  // HostAuthenticationId
    /// Unused.
    public var irmPolicyDescription: String?  // IrmPolicyDescription
    /// Unused.
    public var irmPolicyTitle: String?  // IrmPolicyTitle
    /// Unused.
    public var protectInClient: Bool?  // ProtectInClient
    /// Unused.
    public var webEditingDisabled: Bool?  // WebEditingDisabled
    /// Unused.
    public var disableBrowserCachingOfUserContent: Bool?  // DisableBrowserCachingOfUserContent
    /// Deprecated.
    public var editingCannotSave: Bool?  // EditingCannotSave
    /// Deprecated.
    public var hostName: String?  // HostName
    /// Deprecated.
    public var privacyURL: String?  // PrivacyUrl
    /// Deprecated.
    public var termsOfUseURL: String?  // TermsOfUseUrl
    /// CSPP Plus: the host implements the co-authoring extensions (coauth locks, chunked transfer). Forbidden by the
    /// validator's CSPP schema, so a CSPP host never sends it.
    public var supportsCoauth: Bool?  // SupportsCoauth

    // MARK: CSPP Plus (co-authoring; sent only by a host configured for it)

    /// `SequenceNumber`: the sequence number of the file's content.
    public var sequenceNumber: Int64?  // SequenceNumber
    /// `SupportsChunkedFileTransfer`: the host answers GetChunkedFile, PutChunkedFile, GetChunks and
    /// GetSequenceNumber.
    public var supportsChunkedFileTransfer: Bool?  // SupportsChunkedFileTransfer
    /// `SupportsResumableFileTransfer`: the host answers CreateUploadSession and UpdateUploadSession, and commits
    /// an upload session through PutChunkedFile's `UploadSessionTokenToCommit`.
    public var supportsResumableFileTransfer: Bool?  // SupportsResumableFileTransfer
    /// `RealTimeChannelEndpointUrl`: the real-time channel endpoint (discovery's `rtc`).
    public var realTimeChannelEndpointURL: String?  // RealTimeChannelEndpointUrl
    /// `OfficeCollaborationServiceEndpointUrl`: the collaboration service endpoint (discovery's `collab`).
    public var officeCollaborationServiceEndpointURL: String?  // OfficeCollaborationServiceEndpointUrl
    /// `AccessTokenExpiry`: when the access token expires, in milliseconds since 1970 (UTC).
    public var accessTokenExpiry: Int64?  // AccessTokenExpiry
    /// `ServerTime`: the host's time, in milliseconds since 1970 (UTC).
    public var serverTime: Int64?  // ServerTime
    /// `FileGeoLocationCode`: where the file is stored.
    public var fileGeoLocationCode: String?  // FileGeoLocationCode

    // MARK: PostMessage (Office for the web)

    /// The host page's origin for PostMessage.
    public var postMessageOrigin: String?  // PostMessageOrigin
    /// Send a PostMessage on close.
    public var closePostMessage: Bool?  // ClosePostMessage
    /// Send a PostMessage on switching to edit.
    public var editModePostMessage: Bool?  // EditModePostMessage
    /// Send a PostMessage on edits.
    public var editNotificationPostMessage: Bool?  // EditNotificationPostMessage
    /// Send a PostMessage for sharing.
    public var fileSharingPostMessage: Bool?  // FileSharingPostMessage
    /// Send a PostMessage for version history.
    public var fileVersionPostMessage: Bool?  // FileVersionPostMessage
    /// Send a PostMessage for embedding.
    public var fileEmbedCommandPostMessage: Bool?  // FileEmbedCommandPostMessage
    /// Send a PostMessage on app state changes.
    public var appStateHistoryPostMessage: Bool?  // AppStateHistoryPostMessage

    // MARK: Other WOPI clients (Collabora Online, ONLYOFFICE; Docs/office-for-the-web.md lists who reads what)

    /// `EnableOwnerTermination` (Collabora Online): the file's owner may end the editing session for everyone.
    public var enableOwnerTermination: Bool?  // EnableOwnerTermination
    /// `HidePrintOption` (Collabora Online): hide the print command (printing stays possible through the
    /// browser; ``disablePrint`` turns it off).
    public var hidePrintOption: Bool?  // HidePrintOption
    /// `HideSaveOption` (Collabora Online): hide the save command (the client still saves automatically).
    public var hideSaveOption: Bool?  // HideSaveOption
    /// `HideExportOption` (Collabora Online): hide the download-as / export commands.
    public var hideExportOption: Bool?  // HideExportOption
    /// `DisableExport` (Collabora Online): turn export and download off entirely.
    public var disableExport: Bool?  // DisableExport
    /// `DisableCopy` (Collabora Online): keep copied content inside the document.
    public var disableCopy: Bool?  // DisableCopy
    /// `WatermarkText` (Collabora Online): a text drawn over every page, for example the user's e-mail address.
    public var watermarkText: String?  // WatermarkText
    /// `UserCanReview` (ONLYOFFICE): the user may review (track changes); with `UserCanWrite` they still edit.
    public var userCanReview: Bool?  // UserCanReview
    /// `SupportsReviewing` (ONLYOFFICE): the host supports review mode for the file.
    public var supportsReviewing: Bool?  // SupportsReviewing
    /// `UserCanOnlyComment` (Collabora Online, ONLYOFFICE): the user may comment but not change the content.
    public var userCanOnlyComment: Bool?  // UserCanOnlyComment
    /// `UserCanOnlyManageRedlines` (Collabora Online): the user may see tracked changes and accept, reject or comment
    /// on them, but not change the content otherwise.
    public var userCanOnlyManageRedlines: Bool?  // UserCanOnlyManageRedlines
    /// `UserExtraInfo` (Collabora Online): what other editors see of the user, such as `avatar` (an image URL) and
    /// `mail`.
    public var userExtraInfo: [String: String]?  // UserExtraInfo
    /// `UserPrivateInfo` (Collabora Online): settings only the user's own session sees (for example API keys of
    /// integrations).
    public var userPrivateInfo: [String: String]?  // UserPrivateInfo
    /// `IsAdminUser` (Collabora Online): the user administers the host, and may see the server's admin settings.
    public var isAdminUser: Bool?  // IsAdminUser
    /// `IsUserLocked` (Collabora Online): the user's plan locks premium features.
    public var isUserLocked: Bool?  // IsUserLocked
    /// `EnableShare` (Collabora Online): show a share command that posts `UI_Share` to the host page.
    public var enableShare: Bool?  // EnableShare
    /// `TemplateSource` (Collabora Online, ONLYOFFICE): the URL of a template the editor loads in place of the empty
    /// file's content; its first save is a normal PutFile.
    public var templateSource: String?  // TemplateSource
    /// `TemplateSaveAs` (Collabora Online): the name to save a document opened from a template as.
    public var templateSaveAs: String?  // TemplateSaveAs
    /// `ObfuscatedUserId` (Collabora Online): what its logs show instead of the owner's, the user's ID and name when
    /// it anonymizes them.
    public var obfuscatedUserID: String?  // ObfuscatedUserId
    /// `ServerPrivateInfo` (Collabora Online): settings of the whole server that only the editor sees (keys of
    /// integrations), never a user's browser.
    public var serverPrivateInfo: [String: String]?  // ServerPrivateInfo
    /// `UserSettings` (Collabora Online): where the user's own editor settings live (`uri`), which the editor reads.
    public var userSettings: [String: String]?  // UserSettings
    /// `HideRepairOption` (Collabora Online): hide the repair command (the document's edit history).
    public var hideRepairOption: Bool?  // HideRepairOption
    /// `HideUserList` (Collabora Online): hide the list of co-editors: `true`, or the devices to hide it on
    /// (`mobile`, `tablet`, `desktop`, comma-separated).
    public var hideUserList: String?  // HideUserList
    /// `DisableInactiveMessages` (Collabora Online): show no overlay text when the document goes inactive; the host
    /// page tells the user (it gets `Session_Closed` and `User_Idle`).
    public var disableInactiveMessages: Bool?  // DisableInactiveMessages
    /// `DownloadAsPostMessage` (Collabora Online): post `Download_As` to the host page instead of downloading.
    public var downloadAsPostMessage: Bool?  // DownloadAsPostMessage
    /// `EnableInsertRemoteImage` (Collabora Online): offer inserting a picture from the user's storage (it posts
    /// `UI_InsertGraphic`; the host page answers `Action_InsertGraphic`).
    public var enableInsertRemoteImage: Bool?  // EnableInsertRemoteImage
    /// `EnableInsertRemoteFile` (Collabora Online): offer inserting a file from the user's storage (`UI_InsertFile`).
    public var enableInsertRemoteFile: Bool?  // EnableInsertRemoteFile
    /// `DisableInsertLocalImage` (Collabora Online): no inserting pictures from the user's own device.
    public var disableInsertLocalImage: Bool?  // DisableInsertLocalImage
    /// `EnableRemoteLinkPicker` (Collabora Online): offer a link to an item of the user's storage (`UI_PickLink`).
    public var enableRemoteLinkPicker: Bool?  // EnableRemoteLinkPicker
    /// `EnableRemoteAIContent` (Collabora Online): offer content from the host's AI service.
    public var enableRemoteAIContent: Bool?  // EnableRemoteAIContent
    /// `DisableAISettings` (Collabora Online): hide the AI settings.
    public var disableAISettings: Bool?  // DisableAISettings
    /// `PresentationLeader` (Collabora Online): names the leader of a presentation the co-editors follow (a user ID).
    public var presentationLeader: String?  // PresentationLeader
    /// `IsUserRestricted` (Collabora Online): the user's plan restricts the commands the server's configuration
    /// lists.
    public var isUserRestricted: Bool?  // IsUserRestricted
    /// `DisableChangeTrackingRecord` (Collabora Online): never record changes as tracked changes.
    public var disableChangeTrackingRecord: Bool?  // DisableChangeTrackingRecord
    /// `DisableChangeTrackingShow` (Collabora Online): do not show tracked changes.
    public var disableChangeTrackingShow: Bool?  // DisableChangeTrackingShow
    /// `HideChangeTrackingControls` (Collabora Online): hide the track-changes commands.
    public var hideChangeTrackingControls: Bool?  // HideChangeTrackingControls

    /// Creates a CheckFileInfo body with the required properties; set the others as needed.
    public init(baseFileName: String, ownerID: String, size: Int64, version: String) {
        self.baseFileName = baseFileName
        self.ownerID = ownerID
        self.size = size
        self.version = version
    }
}
