import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

/// CSPP Plus incremental transfer (GetChunkedFile, PutChunkedFile, GetChunks, GetSequenceNumber and upload
/// sessions) for WOPIKit's own client (`WOPIClient`: the `wopi` command and the FUSE mount) on a host without
/// co-authoring, so that a save sends only the chunks that changed against any WOPIKit host.
///
/// Office decides to use these operations from `SupportsChunkedFileTransfer`, which only co-authoring advertises to
/// it. This setting advertises it only to a CheckFileInfo that carries `X-WOPIKit-IncrementalTransfer` (which only
/// WOPIKit's client sends), so Office, the validator and the other editors get exactly the answers of a host
/// without it. The operations themselves are served to any client that calls them (Docs/cspp-plus.md,
/// "Incremental transfer for WOPIKit's client").
public struct IncrementalTransferConfiguration: Sendable {
    /// When the host offers incremental transfer to WOPIKit's client.
    public enum Offer: String, Sendable, CaseIterable {
        /// When the storage keeps its files as chunks (`ChunkedContentStorage`: SQLite, PostgreSQL, object
        /// storage), so that answering costs no read of the whole file; the default.
        case automatic
        /// On every storage: on one that does not keep chunks, the host cuts a file into chunks by reading it
        /// once per version and keeps the list in memory.
        case always
        /// Never: WOPIKit's client gets whole-file GetFile and PutFile (unless co-authoring is on).
        case never
    }

    /// When incremental transfer is offered.
    public var offer: Offer
    /// Where the files' content records (sequence numbers, alternate streams) are kept. In memory by default: give
    /// several hosts one shared store (`WOPIDeployment` gives its own).
    public var contentStreams: any ContentStreamStore = InMemoryContentStreamStore()
    /// Where upload sessions and their bytes are kept. In this process by default: give several hosts one shared
    /// store (`WOPIDeployment` gives its own).
    public var uploadSessions: any UploadSessionStore = InMemoryUploadSessionStore()

    /// Incremental transfer offered as `offer`, with its state in this process.
    public init(offer: Offer = .automatic) {
        self.offer = offer
    }
}

/// The stores one incremental transfer works with: co-authoring's, or ``IncrementalTransferConfiguration``'s.
struct ChunkedTransferStores {
    let contentStreams: any ContentStreamStore
    let uploadSessions: any UploadSessionStore
}

extension WOPIHost {
    /// Whether WOPIKit's client is offered incremental transfer without co-authoring.
    var offersIncrementalTransferToOwnClient: Bool {
        switch configuration.incrementalTransfer.offer {
        case .automatic: storage is any ChunkedContentStorage
        case .always: true
        case .never: false
        }
    }

    /// The stores of incremental transfer: co-authoring's when it is on; else those of
    /// ``WOPIHostConfiguration/incrementalTransfer`` when it is offered; `nil` when the host has no incremental
    /// transfer (its operations answer 501).
    var chunkedTransferStores: ChunkedTransferStores? {
        if let coauthoring = configuration.coauthoring {
            return ChunkedTransferStores(
                contentStreams: coauthoring.contentStreams, uploadSessions: coauthoring.uploadSessions)
        }
        guard offersIncrementalTransferToOwnClient else { return nil }
        return ChunkedTransferStores(
            contentStreams: configuration.incrementalTransfer.contentStreams,
            uploadSessions: configuration.incrementalTransfer.uploadSessions)
    }

    /// Adds `SupportsChunkedFileTransfer` to a CheckFileInfo that WOPIKit's client asked for
    /// (`X-WOPIKit-IncrementalTransfer`) when the host has incremental transfer and co-authoring has not
    /// advertised it already; any other CheckFileInfo is left as it is.
    func offerIncrementalTransfer(_ info: inout CheckFileInfo, request: WOPIRequest) {
        guard info.supportsChunkedFileTransfer == nil, request.header(WOPIHeader.wopiKitIncrementalTransfer) != nil,
            chunkedTransferStores != nil
        else { return }
        info.supportsChunkedFileTransfer = true
    }
}
