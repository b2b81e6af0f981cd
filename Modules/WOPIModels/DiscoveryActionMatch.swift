/// An action that discovery offers for a file, with the app that offers it (Docs/wopi-protocol.md §13.2).
public struct DiscoveryActionMatch: Sendable, Hashable {
    /// The app, for its name and favicon.
    public var app: DiscoveryApp
    /// The action.
    public var action: DiscoveryAction
    /// The net zone the action was found in.
    public var zone: String

    /// Creates a match.
    public init(app: DiscoveryApp, action: DiscoveryAction, zone: String) {
        self.app = app
        self.action = action
        self.zone = zone
    }
}

extension WOPIDiscovery {
    /// The action `name` for a file, looked up by extension (`docx`, with or without the dot) or, when `progID`
    /// is given and no action matches the extension, by `progid` (how discovery lists OneNote notebooks).
    ///
    /// Zones are searched in `zones` order, then in document order; pass `[]` to search every zone.
    public func match(
        action name: String, fileExtension: String?, progID: String? = nil, zones: [String] = []
    ) -> DiscoveryActionMatch? {
        let ext = fileExtension.map { String($0.drop { $0 == "." }).lowercased() }
        let ordered =
            zones.compactMap { zone in netZones.first { $0.name.lowercased() == zone.lowercased() } }
            + netZones.filter { zone in !zones.contains { $0.lowercased() == zone.name.lowercased() } }
        func find(_ matches: (DiscoveryAction) -> Bool) -> DiscoveryActionMatch? {
            for zone in ordered {
                for app in zone.apps {
                    let action = app.actions.first { $0.name.lowercased() == name.lowercased() && matches($0) }
                    if let action { return DiscoveryActionMatch(app: app, action: action, zone: zone.name) }
                }
            }
            return nil
        }
        if let ext, !ext.isEmpty, let found = find({ $0.fileExtension?.lowercased() == ext }) { return found }
        guard let progID else { return nil }
        return find { $0.attributes["progid"]?.lowercased() == progID.lowercased() }
    }
}
