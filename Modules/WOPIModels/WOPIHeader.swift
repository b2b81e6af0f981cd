/// The names of the HTTP headers WOPI defines. Header names are case-insensitive on the wire.
public enum WOPIHeader {
    // MARK: Operation selectors
    /// Selects a POST operation on files, containers and the ecosystem. See ``WOPIOverride``.
    public static let override = "X-WOPI-Override"
    /// Selects a bootstrapper shortcut. See ``WOPIEcosystemOperation``.
    public static let ecosystemOperation = "X-WOPI-EcosystemOperation"

    // MARK: Locks
    /// The lock ID of a request, or the current lock on a `409` response (empty when unlocked).
    public static let lock = "X-WOPI-Lock"
    /// The expected current lock of UnlockAndRelock.
    public static let oldLock = "X-WOPI-OldLock"
    /// Free text on a lock `409`, for logs.
    public static let lockFailureReason = "X-WOPI-LockFailureReason"
    /// Deprecated lock header.
    public static let lockedByOtherInterface = "X-WOPI-LockedByOtherInterface"
    /// CSPP Plus: the lock duration asked for by Lock, RefreshLock and UnlockAndRelock, in seconds (60–3600).
    public static let lockExpirationTimeout = "X-WOPI-LockExpirationTimeout"
    /// CSPP Plus: `true` to show the lock holder's name in later conflicts.
    public static let lockUserVisible = "X-WOPI-LockUserVisible"
    /// CSPP Plus: on a `409`, the visible holder of the lock in the way.
    public static let conflictingLockUsername = "X-WOPI-ConflictingLockUsername"
    /// CSPP Plus: on a `409`, the lock mechanism in the way (`WOPI-Lock`, `WOPI-CoauthLock`,
    /// `WOPI-CoauthExclusiveLock`).
    public static let conflictingMechanism = "X-WOPI-ConflictingMechanism"

    // MARK: Coauth locks (CSPP Plus)
    /// The client session's coauth lock ID.
    public static let coauthLockID = "X-WOPI-CoauthLockId"
    /// `Coauth` or `CoauthExclusive`.
    public static let coauthLockType = "X-WOPI-CoauthLockType"
    /// The client's metadata for its coauth lock (up to 4 KB).
    public static let coauthLockMetadata = "X-WOPI-CoauthLockMetadata"
    /// The coauth lock's duration in seconds (60–3600).
    public static let coauthLockExpirationTimeout = "X-WOPI-CoauthLockExpirationTimeout"
    /// The version of a file's coauth table.
    public static let coauthTableVersion = "X-WOPI-CoauthTableVersion"

    // MARK: Incremental file transfer (CSPP Plus)
    /// A file's sequence number: greater than 0, it grows whenever the file's content streams change. Sent by
    /// PutChunkedFile as the number the client last saw; answered by every chunked-transfer operation.
    public static let sequenceNumber = "X-WOPI-SequenceNumber"
    /// The upload session an UpdateUploadSession appends to (the token CreateUploadSession answered).
    public static let uploadSessionToken = "X-WOPI-UploadSessionToken"
    /// Where in the upload session's byte stream an UpdateUploadSession's body starts.
    public static let contentRangeOffset = "X-WOPI-ContentRangeOffset"
    /// The length of an UpdateUploadSession's body.
    public static let contentRangeLength = "X-WOPI-ContentRangeLength"
    /// How many bytes an upload session holds: where the next UpdateUploadSession starts. Answered by every
    /// UpdateUploadSession, also a refused one, so a client that lost an answer knows where to continue.
    public static let uploadSessionCurrentOffset = "X-WOPI-UploadSessionCurrentOffset"

    // MARK: Content
    /// The file version after GetFile, PutFile, Lock and Unlock.
    public static let itemVersion = "X-WOPI-ItemVersion"
    /// GetFile answers `412` when the file is larger than this.
    public static let maxExpectedSize = "X-WOPI-MaxExpectedSize"
    /// The size of a PutRelativeFile body.
    public static let size = "X-WOPI-Size"
    /// The user IDs that contributed to a PutFile.
    public static let editors = "X-WOPI-Editors"

    // MARK: Names (UTF-7 where marked)
    /// PutRelativeFile, CreateChildFile, CreateChildContainer: a name the host may adjust (UTF-7).
    public static let suggestedTarget = "X-WOPI-SuggestedTarget"
    /// PutRelativeFile, CreateChildFile, CreateChildContainer: an exact name (UTF-7).
    public static let relativeTarget = "X-WOPI-RelativeTarget"
    /// Whether an exact-name target may be overwritten (`true`/`false`).
    public static let overwriteRelativeTarget = "X-WOPI-OverwriteRelativeTarget"
    /// A usable name, sent with a `409` or `400` (UTF-7).
    public static let validRelativeTarget = "X-WOPI-ValidRelativeTarget"
    /// RenameFile and RenameContainer: the new name (UTF-7).
    public static let requestedName = "X-WOPI-RequestedName"
    /// Why a file name was refused, with a `400`.
    public static let invalidFileNameError = "X-WOPI-InvalidFileNameError"
    /// Why a container name was refused, with a `400`.
    public static let invalidContainerNameError = "X-WOPI-InvalidContainerNameError"
    /// Present when PutRelativeFile is part of a format conversion.
    public static let fileConversion = "X-WOPI-FileConversion"

    // MARK: Containers and ecosystem
    /// EnumerateChildren: comma-separated extensions to keep, for example `.docx,.xlsx`.
    public static let fileExtensionFilterList = "X-WOPI-FileExtensionFilterList"
    /// The list returned is partial.
    public static let enumerationIncomplete = "X-WOPI-EnumerationIncomplete"
    /// GetShareUrl: `ReadOnly` or `ReadWrite`.
    public static let urlType = "X-WOPI-UrlType"
    /// GetNewAccessToken: the WOPISrc of the file or container a token is wanted for.
    public static let wopiSrc = "X-WOPI-WopiSrc"
    /// GetFileWopiSrc: a host-specific file identifier.
    public static let hostNativeFileName = "X-WOPI-HostNativeFileName"

    // MARK: Proof keys
    /// Signature with the current proof key.
    public static let proof = "X-WOPI-Proof"
    /// Signature with the old proof key.
    public static let proofOld = "X-WOPI-ProofOld"
    /// .NET ticks at request time.
    public static let timeStamp = "X-WOPI-TimeStamp"

    // MARK: Correlation and logging
    /// Opaque session context from the action URL or the OAuth `sc` parameter.
    public static let sessionContext = "X-WOPI-SessionContext"
    /// Correlation ID for logs.
    public static let correlationID = "X-WOPI-CorrelationId"
    /// Request ID for logs.
    public static let requestID = "X-Request-ID"
    /// Client session ID for logs.
    public static let sessionID = "X-WOPI-SessionId"
    /// Which client is calling.
    public static let requestingApplication = "X-WOPI-RequestingApplication"
    /// The client's version.
    public static let clientVersion = "X-WOPI-ClientVersion"
    /// The client's device ID.
    public static let deviceID = "X-WOPI-DeviceId"
    /// The calling or answering machine's name.
    public static let machineName = "X-WOPI-MachineName"
    /// The host's version, on responses.
    public static let serverVersion = "X-WOPI-ServerVersion"
    /// Error details on non-200 responses.
    public static let serverError = "X-WOPI-ServerError"
    /// The host's endpoint, on responses.
    public static let hostEndpoint = "X-WOPI-HostEndpoint"
    /// Sent by WOPIKit's own client on CheckFileInfo: asks a WOPIKit host that offers incremental transfer without
    /// co-authoring to say so (`SupportsChunkedFileTransfer`). No other client sends it, so every other client
    /// gets the host's answer without it (Docs/cspp-plus.md, "Incremental transfer for WOPIKit's client").
    public static let wopiKitIncrementalTransfer = "X-WOPIKit-IncrementalTransfer"
}

/// The values of `X-WOPI-Override`.
public enum WOPIOverride {
    public static let lock = "LOCK"
    public static let getLock = "GET_LOCK"
    public static let refreshLock = "REFRESH_LOCK"
    public static let unlock = "UNLOCK"
    public static let put = "PUT"
    public static let putRelative = "PUT_RELATIVE"
    public static let renameFile = "RENAME_FILE"
    public static let delete = "DELETE"
    public static let getShareURL = "GET_SHARE_URL"
    public static let addActivities = "ADD_ACTIVITIES"
    public static let putUserInfo = "PUT_USER_INFO"
    public static let createChildContainer = "CREATE_CHILD_CONTAINER"
    public static let createChildFile = "CREATE_CHILD_FILE"
    public static let deleteContainer = "DELETE_CONTAINER"
    public static let renameContainer = "RENAME_CONTAINER"
    public static let getWopiSrcWithAccessToken = "GET_WOPI_SRC_WITH_ACCESS_TOKEN"
    public static let getCoauthLock = "GET_COAUTH_LOCK"
    public static let refreshCoauthLock = "REFRESH_COAUTH_LOCK"
    public static let unlockCoauthLock = "UNLOCK_COAUTH_LOCK"
    public static let getCoauthTable = "GET_COAUTH_TABLE"
    public static let getChunkedFile = "GET_CHUNKED_FILE"
    public static let putChunkedFile = "PUT_CHUNKED_FILE"
    public static let getChunks = "GET_CHUNKS"
    public static let getSequenceNumber = "GET_SEQUENCE_NUMBER"
    public static let createUploadSession = "CREATE_UPLOAD_SESSION"
    public static let updateUploadSession = "UPDATE_UPLOAD_SESSION"
}

/// The values of `X-WOPI-EcosystemOperation` on the bootstrapper.
public enum WOPIEcosystemOperation {
    public static let getRootContainer = "GET_ROOT_CONTAINER"
    public static let getNewAccessToken = "GET_NEW_ACCESS_TOKEN"
    public static let getWopiSrcWithAccessToken = "GET_WOPI_SRC_WITH_ACCESS_TOKEN"
}
