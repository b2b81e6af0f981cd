import Foundation
import Logging
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
        info.supportsChunkedFileTransfer = true
        info.supportsResumableFileTransfer = true
        info.supportsUserInfo = true
        info.realTimeChannelEndpointURL = endpoints.realTimeChannel
        info.officeCollaborationServiceEndpointURL = endpoints.officeCollaborationService
        info.accessTokenExpiry = EpochMilliseconds.from(context.token.expiresAt)
        info.serverTime = EpochMilliseconds.from(now())
        info.fileGeoLocationCode = coauthoring.fileGeoLocationCode
        do {
            info.sequenceNumber =
                try await currentContentRecord(of: file.id, version: file.version, in: coauthoring.contentStreams)
                .sequenceNumber
        } catch {
            logger.error("The file's sequence number could not be read", metadata: ["error": "\(error)"])
        }
        if info.sharingStatus == nil { info.sharingStatus = context.access.isOwner ? "Private" : "Shared" }
    }
}
