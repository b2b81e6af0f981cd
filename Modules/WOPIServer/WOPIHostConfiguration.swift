public import Foundation
public import Metrics
public import WOPIModels

/// How a ``WOPIHost`` behaves. Every property has a sensible default.
public struct WOPIHostConfiguration: Sendable {
    /// The external base URL clients use (`https://wopi.example.com`), used for every absolute URL the host
    /// returns. When `nil`, URLs are built from each request's `Host` header and `X-Forwarded-Proto`; set it in
    /// production so a forged `Host` header cannot steer the URLs.
    public var publicURL: String?
    /// The scheme the host serves when no proxy says otherwise (`https` when it terminates TLS itself); used with
    /// the request's `Host` when ``publicURL`` is `nil`.
    public var scheme: String = "http"
    /// The path of the WOPI root; its last segment must start with `wopi` (Docs/wopi-protocol.md §2.1).
    public var wopiPath: String = "/wopi"
    /// How long a token minted from OAuth (or by the CLI) lives. Tokens minted from another token keep its expiry.
    public var accessTokenLifetime: TimeInterval = 10 * 60 * 60
    /// How long a WOPI lock lasts without a refresh (30 minutes by the protocol).
    public var lockDuration: TimeInterval = 30 * 60
    /// The largest file PutFile and PutRelativeFile accept (`413` above), `nil` for no limit: 1 GiB by default.
    ///
    /// A body whose `Content-Length` says more is refused before a byte of it is read; one sent without a length
    /// is stopped as it passes the limit, and the file keeps its previous content. 1 GiB is far above what Office
    /// for the web, Office for iOS and Android or the other WOPI editors open; raise it for a host that keeps other
    /// large files, and lower it to what your editors open to keep uploads from filling the disk.
    public var maximumFileSize: Int64? = WOPIHostConfiguration.defaultMaximumFileSize

    /// The default of ``maximumFileSize``: 1 GiB.
    public static let defaultMaximumFileSize: Int64 = 1 << 30
    /// The value of `X-WOPI-ServerVersion` on responses.
    public var serverVersion: String = "WOPIKit"
    /// Whether users are education users (`IsEduUser`), the same for every file and container.
    public var isEduUser: Bool = false
    /// Whether editing needs a Microsoft 365 business licence (`LicenseCheckForEditIsEnabled`).
    public var licenseCheckForEditIsEnabled: Bool = false
    /// The default base name for CreateChildFile when only an extension is suggested.
    public var defaultNewFileBaseName: String = "New Document"
    /// The rules for file and container names: what create, PutRelativeFile, rename and the names shown to
    /// clients must follow. ``FileNameRules/default`` accepts names as users have them (`.gitignore`,
    /// `Notes #3.docx`); use ``FileNameRules/officeMobile`` for the stricter names Office for iOS and Android
    /// show. Its ``FileNameRules/maximumBaseNameLength`` is the `FileNameMaxLength` CheckFileInfo reports. Items
    /// stored under a name that breaks the rules can still be listed (under a sanitized name), opened and renamed.
    public var fileNameRules: FileNameRules = .default
    /// The links GetShareUrl answers with; `nil` (the default) answers GetShareUrl with 501 and advertises no
    /// `SupportedShareUrlTypes`.
    public var shareLinks: ShareLinks? = nil
    /// The `FileUrl` CheckFileInfo hands out, from which a WOPI client may download the content instead of calling
    /// GetFile; `nil` (the default) sets no `FileUrl`. `WOPIDeployment` sets it from its token key.
    public var fileURLs: FileURLs? = nil
    /// Reads the token's user, the item and the user's shares in one database round trip when authorizing a
    /// request for a file or a container; `nil` (the default) reads them one by one from the host's stores.
    /// `WOPIDeployment` sets `PostgresAuthorizationReader` on PostgreSQL. Set one only when it reads the host's own
    /// users, items and shares (``AuthorizationReader``).
    public var authorizationReader: (any AuthorizationReader)? = nil
    /// The templates new documents can be made from (``WOPIHost/createDocument(fromTemplate:named:in:for:)``), and
    /// the references that put `TemplateSource` in their CheckFileInfo; `nil` (the default) has none.
    public var templates: (any TemplateStore)? = nil
    /// What happens to a lock the WOPI client did not release once the file's last editing session was closed
    /// (``WOPIHost/editingSessionEnded(file:session:)``).
    public var endedSessionLocks: EndedSessionLocks = .expire
    /// How Lock, RefreshLock and Unlock from a view-only token are answered.
    public var viewOnlyLocks: ViewOnlyLocks = .refuse

    /// What happens to a lock whose editing sessions have all ended without the WOPI client's Unlock (an editor that
    /// crashed, an Unlock refused for an expired token): the most common cause of a document that reopens
    /// read-only. Collabora Online and ONLYOFFICE both hold one lock per document for all its co-editors, refresh it
    /// while anyone edits (Collabora re-sends Lock every 15 minutes, ONLYOFFICE sends RefreshLock every 10) and
    /// release it when the last one leaves.
    public enum EndedSessionLocks: Sendable, Hashable {
        /// The lock lapses ``WOPIHostConfiguration/lockDuration`` (the protocol's 30 minutes) after its last Lock or
        /// RefreshLock, whatever the host pages saw.
        case expire
        /// When the user closes the file's last editing session explicitly, the lock lapses `grace` later (unless a
        /// session still alive refreshes it): long enough for the client's exit save, which it sends with the lock
        /// after the last user left.
        case releaseAfterClose(grace: TimeInterval)
    }

    /// How the host answers lock operations from a user who may only view.
    public enum ViewOnlyLocks: Sendable, Hashable {
        /// 401, as for every write a view-only token attempts (Microsoft's clients never lock without
        /// `UserCanWrite`).
        case refuse
        /// 200 without taking, refreshing or releasing any lock: ONLYOFFICE sends Lock when it opens any document,
        /// even read-only, and shows an error dialog for anything but 200. Content still cannot change.
        case acknowledge
    }

    /// Checks Office for the web's proof-key signatures (`X-WOPI-Proof`, `X-WOPI-ProofOld`, `X-WOPI-TimeStamp`) on
    /// every request below ``wopiPath`` when set, usually to a ``DiscoveryClient`` (Docs/wopi-protocol.md §12). A
    /// request whose proof fails is answered `500` with `X-WOPI-ServerError` naming the failed check. `nil` (the
    /// default, and the CSPP mobile deployment, whose clients do not sign) checks nothing.
    public var proofKeySource: (any ProofKeySource)? = nil
    /// Development only: accept unsigned requests although ``proofKeySource`` is set. The host logs a warning
    /// when it starts with this on.
    public var proofKeyCheckDisabled: Bool = false
    /// Where the host's metrics go (requests by operation and status, latency, lock conflicts, proof-key failures,
    /// bytes, storage errors; Docs/operations.md); `nil` (the default) records them through the process's
    /// `MetricsSystem`, which drops them unless the program bootstrapped a backend.
    public var metricsFactory: (any MetricsFactory)? = nil

    /// Co-authoring (CSPP Plus); `nil`, the default, answers exactly as a CSPP host (see
    /// ``CoauthoringConfiguration``).
    public var coauthoring: CoauthoringConfiguration? = nil
    /// Incremental transfer for WOPIKit's own client without co-authoring (see
    /// ``IncrementalTransferConfiguration``); by default offered when the storage keeps chunks. With
    /// ``coauthoring`` set, co-authoring's stores serve every client and this one's are not used.
    public var incrementalTransfer = IncrementalTransferConfiguration()

    /// Creates a configuration with the defaults.
    public init() {}
}
