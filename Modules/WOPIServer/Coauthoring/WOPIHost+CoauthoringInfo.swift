import Foundation
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// Adds the CSPP Plus CheckFileInfo properties (`checkfileinfo-csppp`) when co-authoring is configured and its
    /// endpoints are known; leaves `info` as it is otherwise, so a CSPP host answers exactly as before.
    func describeCoauthoring(_ info: inout CheckFileInfo, file: FileMetadata, context: RequestContext) async {
        guard let coauthoring = configuration.coauthoring,
            let endpoints = await coauthoring.currentEndpoints()
        else { return }
        info.supportsCoauth = true
        info.supportsUserInfo = true
        info.realTimeChannelEndpointURL = endpoints.realTimeChannel
        info.officeCollaborationServiceEndpointURL = endpoints.officeCollaborationService
        info.accessTokenExpiry = EpochMilliseconds.from(context.token.expiresAt)
        info.serverTime = EpochMilliseconds.from(now())
        info.fileGeoLocationCode = coauthoring.fileGeoLocationCode
        info.sequenceNumber = Self.sequenceNumber(of: file)
        if info.sharingStatus == nil { info.sharingStatus = context.access.isOwner ? "Private" : "Shared" }
    }

    /// The file's `SequenceNumber` until incremental file transfer keeps its own: the last change of the content in
    /// whole seconds since 1970, which grows with every save more than a second after the previous one.
    static func sequenceNumber(of file: FileMetadata) -> Int64 {
        max(1, Int64(file.lastModified.timeIntervalSince1970.rounded(.down)))
    }
}
