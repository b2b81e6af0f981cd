import Foundation
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
    /// The largest file PutFile, PutRelativeFile and CreateChildFile accept (`413` above), `nil` for no limit.
    public var maximumFileSize: Int64? = nil
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

    /// Creates a configuration with the defaults.
    public init() {}
}
