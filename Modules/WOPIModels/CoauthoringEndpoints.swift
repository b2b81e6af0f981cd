import Foundation

/// The co-authoring endpoints a CSPP Plus host advertises in CheckFileInfo (`RealTimeChannelEndpointUrl`,
/// `OfficeCollaborationServiceEndpointUrl`) and GetNewAccessToken (`EndPoints`).
public struct CoauthoringEndpoints: Sendable, Hashable, Codable {
    enum CodingKeys: String, CodingKey {
        case realTimeChannel = "RealTimeChannelEndpointUrl"
        case officeCollaborationService = "OfficeCollaborationServiceEndpointUrl"
    }

    /// The real-time channel (discovery's `rtc` action).
    public var realTimeChannel: String
    /// The Office collaboration service (discovery's `collab` action).
    public var officeCollaborationService: String

    /// Endpoints set explicitly.
    public init(realTimeChannel: String, officeCollaborationService: String) {
        self.realTimeChannel = realTimeChannel
        self.officeCollaborationService = officeCollaborationService
    }

    /// The endpoints of a discovery's `rtc` and `collab` actions (their `urlsrc` without placeholders), or `nil`
    /// when it lacks either.
    public init?(discovery: WOPIDiscovery) {
        func endpoint(_ name: String) -> String? {
            let actions = discovery.netZones.flatMap(\.apps).flatMap(\.actions)
            guard let action = actions.first(where: { $0.name.lowercased() == name }) else { return nil }
            let bare = action.urlTemplate.template.replacingOccurrences(
                of: "<[^>]*>", with: "", options: .regularExpression)
            let url = String(bare.reversed().drop { $0 == "?" || $0 == "&" }.reversed())
            return url.isEmpty ? nil : url
        }
        guard let rtc = endpoint("rtc"), let collab = endpoint("collab") else { return nil }
        self.init(realTimeChannel: rtc, officeCollaborationService: collab)
    }
}
