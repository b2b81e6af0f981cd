public import HTTPTypes
import WOPIModels

/// Every header name WOPIKit reads or writes beyond swift-http-types' own, declared once and parsed once.
extension HTTPField.Name {
    // MARK: WOPI (names from `WOPIHeader`)

    /// `X-WOPI-Override`: selects a POST operation.
    public static let wopiOverride = HTTPField.Name(WOPIHeader.override)!
    /// `X-WOPI-EcosystemOperation`: selects a bootstrapper shortcut.
    public static let wopiEcosystemOperation = HTTPField.Name(WOPIHeader.ecosystemOperation)!
    /// `X-WOPI-Lock`: a request's lock, or the current lock on a 409 (empty when unlocked).
    public static let wopiLock = HTTPField.Name(WOPIHeader.lock)!
    /// `X-WOPI-OldLock`: the expected lock of UnlockAndRelock.
    public static let wopiOldLock = HTTPField.Name(WOPIHeader.oldLock)!
    /// `X-WOPI-LockFailureReason`: why a lock request got 409.
    public static let wopiLockFailureReason = HTTPField.Name(WOPIHeader.lockFailureReason)!
    /// `X-WOPI-ConflictingMechanism` (CSPP Plus): the lock mechanism in the way of a 409.
    public static let wopiConflictingMechanism = HTTPField.Name(WOPIHeader.conflictingMechanism)!
    /// `X-WOPI-ConflictingLockUsername` (CSPP Plus): the visible holder of the lock in the way of a 409.
    public static let wopiConflictingLockUsername = HTTPField.Name(WOPIHeader.conflictingLockUsername)!
    /// `X-WOPI-CoauthTableVersion` (CSPP Plus): the version of a file's coauth table.
    public static let wopiCoauthTableVersion = HTTPField.Name(WOPIHeader.coauthTableVersion)!
    /// `X-WOPI-SequenceNumber` (CSPP Plus): the sequence number of a file's content streams.
    public static let wopiSequenceNumber = HTTPField.Name(WOPIHeader.sequenceNumber)!
    /// `X-WOPI-UploadSessionToken` (CSPP Plus): the upload session an UpdateUploadSession appends to.
    public static let wopiUploadSessionToken = HTTPField.Name(WOPIHeader.uploadSessionToken)!
    /// `X-WOPI-ContentRangeOffset` (CSPP Plus): where an UpdateUploadSession's body starts in the session.
    public static let wopiContentRangeOffset = HTTPField.Name(WOPIHeader.contentRangeOffset)!
    /// `X-WOPI-ContentRangeLength` (CSPP Plus): the length of an UpdateUploadSession's body.
    public static let wopiContentRangeLength = HTTPField.Name(WOPIHeader.contentRangeLength)!
    /// `X-WOPI-UploadSessionCurrentOffset` (CSPP Plus): how many bytes an upload session holds.
    public static let wopiUploadSessionCurrentOffset = HTTPField.Name(WOPIHeader.uploadSessionCurrentOffset)!
    /// `X-WOPI-ServerError`: what went wrong, on an error response.
    public static let wopiServerError = HTTPField.Name(WOPIHeader.serverError)!
    /// `X-WOPI-ServerVersion`: the host's version, on every WOPI response.
    public static let wopiServerVersion = HTTPField.Name(WOPIHeader.serverVersion)!
    /// `X-WOPI-ItemVersion`: the file's version.
    public static let wopiItemVersion = HTTPField.Name(WOPIHeader.itemVersion)!
    /// `X-WOPI-CorrelationId`: the client's ID of the request, for logs.
    public static let wopiCorrelationID = HTTPField.Name(WOPIHeader.correlationID)!
    /// `X-Request-ID`: another client's ID of the request, for logs.
    public static let requestID = HTTPField.Name(WOPIHeader.requestID)!
    /// `X-WOPI-RequestingApplication`: which client calls.
    public static let wopiRequestingApplication = HTTPField.Name(WOPIHeader.requestingApplication)!
    /// `X-WOPI-WopiSrc`: the WOPISrc GetNewAccessToken wants a token for.
    public static let wopiSrc = HTTPField.Name(WOPIHeader.wopiSrc)!
    /// `X-WOPI-SuggestedTarget`: a name the host may adjust (UTF-7).
    public static let wopiSuggestedTarget = HTTPField.Name(WOPIHeader.suggestedTarget)!
    /// `X-WOPI-RelativeTarget`: an exact name (UTF-7).
    public static let wopiRelativeTarget = HTTPField.Name(WOPIHeader.relativeTarget)!
    /// `X-WOPI-OverwriteRelativeTarget`: whether an exact-name target may be replaced.
    public static let wopiOverwriteRelativeTarget = HTTPField.Name(WOPIHeader.overwriteRelativeTarget)!
    /// `X-WOPI-ValidRelativeTarget`: a usable name, with a 409 or 400 (UTF-7).
    public static let wopiValidRelativeTarget = HTTPField.Name(WOPIHeader.validRelativeTarget)!
    /// `X-WOPI-InvalidFileNameError`: why a file name was refused.
    public static let wopiInvalidFileNameError = HTTPField.Name(WOPIHeader.invalidFileNameError)!
    /// `X-WOPI-InvalidContainerNameError`: why a container name was refused.
    public static let wopiInvalidContainerNameError = HTTPField.Name(WOPIHeader.invalidContainerNameError)!

    // MARK: Proxies

    /// `X-Forwarded-For`: the client addresses a reverse proxy appends.
    public static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    /// `X-Forwarded-Proto`: the scheme the client used to reach a reverse proxy.
    public static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!

    // MARK: Page security

    /// `Referrer-Policy`.
    public static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    /// `X-Frame-Options`.
    public static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    /// `Pragma` (HTTP/1.0 caches).
    public static let pragma = HTTPField.Name("Pragma")!
}
