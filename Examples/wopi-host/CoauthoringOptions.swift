import ArgumentParser
import WOPIDeployment
import WOPIModels
import WOPIServer

/// `serve`'s co-authoring (CSPP Plus) options; without `--coauthoring` the host answers as a CSPP host (and offers
/// incremental transfer to WOPIKit's own client only, as `--incremental-transfer` says).
struct CoauthoringOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: "Turn on co-authoring (CSPP Plus): coauth locks and the CSPP Plus CheckFileInfo properties.")
    var coauthoring = false
    @Option(name: .long, help: "The real-time channel endpoint (default: discovery's rtc action).")
    var realTimeChannelURL: String?
    @Option(name: .long, help: "The Office collaboration service endpoint (default: discovery's collab action).")
    var collaborationServiceURL: String?
    @Option(name: .long, help: "FileGeoLocationCode: where files are stored, as agreed at onboarding.")
    var fileGeoLocationCode = ""
    @Option(
        name: .long,
        help: ArgumentHelp(
            "When WOPIKit's own client (wopi, the mount) gets incremental transfer without --coauthoring.",
            discussion: "automatic: when the storage keeps chunks (sqlite, a --database; not fs); always; never."),
        transform: { value in
            guard let offer = IncrementalTransferConfiguration.Offer(rawValue: value) else {
                throw ValidationError("--incremental-transfer takes automatic, always or never.")
            }
            return offer
        })
    var incrementalTransfer = IncrementalTransferConfiguration.Offer.automatic

    /// The deployment setting, or `nil` without `--coauthoring`.
    func setting(hasDiscovery: Bool) throws -> WOPIDeployment.Configuration.Coauthoring? {
        guard coauthoring else {
            if realTimeChannelURL != nil || collaborationServiceURL != nil {
                throw ValidationError("--real-time-channel-url and --collaboration-service-url need --coauthoring.")
            }
            return nil
        }
        switch (realTimeChannelURL, collaborationServiceURL) {
        case (let rtc?, let collab?):
            guard [rtc, collab].allSatisfy({ $0.hasPrefix("https://") || $0.hasPrefix("http://") }) else {
                throw ValidationError("The co-authoring endpoints must be http(s) URLs.")
            }
            return .init(
                endpoints: CoauthoringEndpoints(realTimeChannel: rtc, officeCollaborationService: collab),
                fileGeoLocationCode: fileGeoLocationCode)
        case (nil, nil):
            guard hasDiscovery else {
                throw ValidationError(
                    "--coauthoring takes its endpoints from discovery (--discovery-url or --discovery-file), "
                        + "or give --real-time-channel-url and --collaboration-service-url.")
            }
            return .init(endpoints: nil, fileGeoLocationCode: fileGeoLocationCode)
        default:
            throw ValidationError("Give both --real-time-channel-url and --collaboration-service-url, or neither.")
        }
    }
}
