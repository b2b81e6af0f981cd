/// One `<app>` of a discovery net zone, for example Word, Excel or WopiTest (Docs/wopi-protocol.md §13.2).
public struct DiscoveryApp: Sendable, Hashable {
    /// The app name, for example `Word`.
    public var name: String
    /// The `favIconUrl` attribute, if any.
    public var favIconURL: String?
    /// The `checkLicense` attribute (`true` when the app checks the user's license).
    public var checkLicense: Bool
    /// The app's actions in document order.
    public var actions: [DiscoveryAction]
    /// Every attribute as found, including undocumented ones (`applicationBaseUrl`, ...).
    public var attributes: [String: String]

    /// Creates an app.
    public init(
        name: String, favIconURL: String? = nil, checkLicense: Bool = false, actions: [DiscoveryAction] = [],
        attributes: [String: String] = [:]
    ) {
        self.name = name
        self.favIconURL = favIconURL
        self.checkLicense = checkLicense
        self.actions = actions
        self.attributes = attributes
    }
}
