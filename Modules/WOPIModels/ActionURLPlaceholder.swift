/// A placeholder of a discovery `urlsrc` template, such as `UI_LLCC` in `<ui=UI_LLCC&>` (Docs/wopi-protocol.md §13.3).
public struct ActionURLPlaceholder: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The placeholder as written in the template, for example `UI_LLCC`.
    public let rawValue: String

    /// Creates a placeholder; any name is allowed, Microsoft may add new ones.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// `WOPI_SOURCE`: the URL-encoded WOPISrc. Always filled from the `wopiSrc` argument.
    public static let wopiSource = Self(rawValue: "WOPI_SOURCE")
    /// `UI_LLCC`: the UI language, RFC 1766 (`en-US`).
    public static let uiLanguage = Self(rawValue: "UI_LLCC")
    /// `DC_LLCC`: the data-calculation language, RFC 1766 (`en-US`).
    public static let dataLanguage = Self(rawValue: "DC_LLCC")
    /// `BUSINESS_USER`: `1` for business users.
    public static let businessUser = Self(rawValue: "BUSINESS_USER")
    /// `SESSION_CONTEXT`: any string; it comes back as `X-WOPI-SessionContext` on CheckFileInfo.
    public static let sessionContext = Self(rawValue: "SESSION_CONTEXT")
    /// `VALIDATOR_TEST_CATEGORY`: `All`, `OfficeOnline` or `OfficeNativeClient`.
    public static let validatorTestCategory = Self(rawValue: "VALIDATOR_TEST_CATEGORY")
    /// `HOST_SESSION_ID`: your session ID, for Microsoft's troubleshooting.
    public static let hostSessionID = Self(rawValue: "HOST_SESSION_ID")
    /// `DISABLE_CHAT`: `1` turns chat off.
    public static let disableChat = Self(rawValue: "DISABLE_CHAT")
    /// `PERFSTATS`: undocumented.
    public static let perfStats = Self(rawValue: "PERFSTATS")
    /// `EMBEDDED` (broadcast only).
    public static let embedded = Self(rawValue: "EMBEDDED")
    /// `DISABLE_ASYNC` (broadcast only).
    public static let disableAsync = Self(rawValue: "DISABLE_ASYNC")
    /// `DISABLE_BROADCAST` (broadcast only).
    public static let disableBroadcast = Self(rawValue: "DISABLE_BROADCAST")
    /// `FULLSCREEN` (broadcast only).
    public static let fullscreen = Self(rawValue: "FULLSCREEN")
    /// `RECORDING` (broadcast only).
    public static let recording = Self(rawValue: "RECORDING")
    /// `THEME_ID`: `1` light, `2` dark (broadcast only).
    public static let themeID = Self(rawValue: "THEME_ID")
}
