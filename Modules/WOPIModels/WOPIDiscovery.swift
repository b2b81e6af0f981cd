public import Foundation

/// A parsed WOPI discovery document: net zones, apps, actions and proof keys (Docs/wopi-protocol.md §12.5, §13).
///
/// ```swift
/// let discovery = try WOPIDiscovery(xml: data)
/// let view = discovery.action(named: "view", forExtension: "docx")
/// let url = view?.url(wopiSrc: wopiSrc, values: [.uiLanguage: "en-US"])
/// let key = try discovery.proofKey?.currentKey()
/// ```
///
/// Cache it and refresh every 12 to 24 hours, after a proof-key failure, or after a success with the old key.
public struct WOPIDiscovery: Sendable, Hashable {
    /// The net zones in document order.
    public var netZones: [DiscoveryNetZone]
    /// The `<proof-key>` element, if present.
    public var proofKey: DiscoveryProofKey?
    /// What ``init(xml:)`` skipped (an `<app>` without a name, an `<action>` without `name` or `urlsrc`), each with
    /// its line, for the caller to log as warnings. Empty for a value made in code.
    public var warnings: [String] = []

    /// Creates a discovery value.
    public init(netZones: [DiscoveryNetZone], proofKey: DiscoveryProofKey? = nil) {
        self.netZones = netZones
        self.proofKey = proofKey
    }

    /// Parses a discovery document. Unknown elements and attributes are ignored (attributes are kept in
    /// ``DiscoveryApp/attributes`` and ``DiscoveryAction/attributes``); actions outside an `<app>` are skipped.
    ///
    /// An `<app>` without a name or an `<action>` without `name` or `urlsrc` is skipped and described in
    /// ``warnings``: one broken entry does not take the other apps away.
    /// - Throws: ``WOPIFormatError`` when the XML is not well-formed or the root is not `<wopi-discovery>`.
    public init(xml: Data) throws(WOPIFormatError) {
        let parts = try DiscoveryXMLReader.read(xml)
        self.init(netZones: parts.zones, proofKey: parts.proofKey)
        warnings = parts.warnings
    }

    /// The zone named `zone`, or the first zone when `zone` is `nil`.
    public func netZone(_ zone: String? = nil) -> DiscoveryNetZone? {
        guard let zone else { return netZones.first }
        return netZones.first { $0.name.lowercased() == zone.lowercased() }
    }

    /// The actions for a file extension (case-insensitive, with or without the dot) in one zone (default: the
    /// first).
    public func actions(forExtension fileExtension: String, inZone zone: String? = nil) -> [DiscoveryAction] {
        let ext = String(fileExtension.drop { $0 == "." }).lowercased()
        return (netZone(zone)?.apps ?? []).flatMap(\.actions).filter { $0.fileExtension?.lowercased() == ext }
    }

    /// The action `name` (case-insensitive) for a file extension in one zone (default: the first), or `nil`.
    public func action(named name: String, forExtension fileExtension: String, inZone zone: String? = nil)
        -> DiscoveryAction?
    {
        actions(forExtension: fileExtension, inZone: zone).first { $0.name.lowercased() == name.lowercased() }
    }
}
