import Foundation
import WOPIModels

extension FuzzTarget {
    /// Discovery XML (`/hosting/discovery`): the reader, then the lookups and proof-key decoding a host does next.
    static let discovery = FuzzTarget(name: "discovery") { input in
        let wopiSrc = URL(string: "https://host.example/wopi/files/1")!
        guard let discovery = try? WOPIDiscovery(xml: input.data) else { return }
        for zone in discovery.netZones {
            for app in zone.apps {
                for action in app.actions {
                    _ = discovery.actions(forExtension: action.fileExtension ?? "", inZone: zone.name)
                    _ = action.url(wopiSrc: wopiSrc, values: [:])
                }
            }
        }
        _ = discovery.action(named: "edit", forExtension: "docx")
        if let proofKey = discovery.proofKey {
            _ = try? proofKey.currentKey()
            _ = try? proofKey.oldKey()
        }
    }
}
