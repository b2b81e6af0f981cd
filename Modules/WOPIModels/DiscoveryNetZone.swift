/// One `<net-zone>` of discovery: the apps for one network zone (Docs/wopi-protocol.md §13.2).
public struct DiscoveryNetZone: Sendable, Hashable {
    /// The usual zone names.
    public enum Name {
        /// `internal-http`.
        public static let internalHTTP = "internal-http"
        /// `internal-https`.
        public static let internalHTTPS = "internal-https"
        /// `external-http`.
        public static let externalHTTP = "external-http"
        /// `external-https`, the zone of Microsoft's public discovery.
        public static let externalHTTPS = "external-https"
    }

    /// The zone name, for example `external-https`.
    public var name: String
    /// The zone's apps in document order.
    public var apps: [DiscoveryApp]

    /// Creates a zone.
    public init(name: String, apps: [DiscoveryApp] = []) {
        self.name = name
        self.apps = apps
    }
}
