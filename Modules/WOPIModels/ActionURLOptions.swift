/// The values a host puts into a discovery action URL's optional placeholders (Docs/wopi-protocol.md §13.3).
///
/// Every `nil` or `false` value leaves its `<…>` group out, as do placeholders this type does not name, so the URL
/// carries only what the host knows.
///
/// ```swift
/// var options = ActionURLOptions(uiLanguage: "de-DE")
/// options.businessUser = true
/// let url = action.url(wopiSrc: wopiSrc, values: options.values)
/// ```
public struct ActionURLOptions: Sendable, Hashable {
    /// `UI_LLCC`: the user interface language, RFC 1766 (`en-US`).
    public var uiLanguage: String?
    /// `DC_LLCC`: the language for data calculations (dates, numbers); defaults to ``uiLanguage``.
    public var dataLanguage: String?
    /// `BUSINESS_USER`: `1` when the user needs a Microsoft 365 business licence to edit.
    public var businessUser: Bool
    /// `DISABLE_CHAT`: `1` turns the client's chat off.
    public var disableChat: Bool
    /// `EMBEDDED`: `true` for an embedded (broadcast) view.
    public var embedded: Bool
    /// `VALIDATOR_TEST_CATEGORY`: `All`, `OfficeOnline` or `OfficeNativeClient`, for the WOPI validator.
    public var validatorTestCategory: String?
    /// `HOST_SESSION_ID`: the host's session ID, for Microsoft's troubleshooting.
    public var hostSessionID: String?
    /// `SESSION_CONTEXT`: any string; Office sends it back as `X-WOPI-SessionContext` on CheckFileInfo.
    public var sessionContext: String?

    /// Creates options; everything left out is dropped from the URL.
    public init(
        uiLanguage: String? = nil, dataLanguage: String? = nil, businessUser: Bool = false, disableChat: Bool = false,
        embedded: Bool = false, validatorTestCategory: String? = nil, hostSessionID: String? = nil,
        sessionContext: String? = nil
    ) {
        self.uiLanguage = uiLanguage
        self.dataLanguage = dataLanguage
        self.businessUser = businessUser
        self.disableChat = disableChat
        self.embedded = embedded
        self.validatorTestCategory = validatorTestCategory
        self.hostSessionID = hostSessionID
        self.sessionContext = sessionContext
    }

    /// The placeholder values for ``ActionURLTemplate/url(wopiSrc:values:)``.
    public var values: [ActionURLPlaceholder: String] {
        var values: [ActionURLPlaceholder: String] = [:]
        values[.uiLanguage] = uiLanguage
        values[.dataLanguage] = dataLanguage ?? uiLanguage
        if businessUser { values[.businessUser] = "1" }
        if disableChat { values[.disableChat] = "1" }
        if embedded { values[.embedded] = "true" }
        values[.validatorTestCategory] = validatorTestCategory
        values[.hostSessionID] = hostSessionID
        values[.sessionContext] = sessionContext
        return values
    }
}
