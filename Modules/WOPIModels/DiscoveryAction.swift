public import Foundation

/// One `<action>` of a discovery `<app>`: what a WOPI client can do with a file type (Docs/wopi-protocol.md §13.2).
public struct DiscoveryAction: Sendable, Hashable {
    /// The action, for example `view`, `edit`, `editnew`, `embedview`, `getinfo`.
    public var name: String
    /// The file extension without dot (`docx`), when the action is keyed by extension.
    public var fileExtension: String?
    /// The capability groups the host must implement, for example `["locks", "update"]`.
    public var requires: [String]
    /// The URL template (`urlsrc`).
    public var urlTemplate: ActionURLTemplate
    /// Whether this is the default action for the extension.
    public var isDefault: Bool
    /// Every attribute as found, including ones this type does not model (`progid`, `newext`, ...).
    public var attributes: [String: String]

    /// Creates an action.
    public init(
        name: String, fileExtension: String?, requires: [String] = [], urlTemplate: ActionURLTemplate,
        isDefault: Bool = false, attributes: [String: String] = [:]
    ) {
        self.name = name
        self.fileExtension = fileExtension
        self.requires = requires
        self.urlTemplate = urlTemplate
        self.isDefault = isDefault
        self.attributes = attributes
    }

    /// The action URL for a file; see ``ActionURLTemplate/url(wopiSrc:values:)``.
    public func url(wopiSrc: URL, values: [ActionURLPlaceholder: String] = [:]) -> String {
        urlTemplate.url(wopiSrc: wopiSrc, values: values)
    }
}
