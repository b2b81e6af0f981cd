public import WOPIModels

/// Co-authoring (CSPP Plus) for a host: set ``WOPIHostConfiguration/coauthoring`` to turn it on.
///
/// Without it the host answers exactly as a CSPP host: no CSPP Plus CheckFileInfo property, no coauth operation
/// (they answer 501), no lock extension header. With it, the host implements GetCoauthLock, RefreshCoauthLock,
/// UnlockCoauthLock and GetCoauthTable, incremental and resumable file transfer, the WOPI-lock extensions
/// (`X-WOPI-LockExpirationTimeout`,
/// `X-WOPI-LockUserVisible`), and advertises the CSPP Plus properties whenever the endpoints are known.
/// `Docs/cspp-plus.md` walks through the onboarding.
public struct CoauthoringConfiguration: Sendable {
    /// Where the co-authoring endpoints come from.
    public enum EndpointSource: Sendable {
        /// Endpoints set by the operator.
        case fixed(CoauthoringEndpoints)
        /// The `rtc` and `collab` actions of the WOPI client's discovery; while discovery cannot be read or lacks
        /// them, CheckFileInfo advertises no CSPP Plus property.
        case discovery(DiscoveryClient)
    }

    /// Where the endpoints come from.
    public var endpoints: EndpointSource
    /// `FileGeoLocationCode`: where the files are stored, as agreed with Microsoft at onboarding (for example
    /// `"US"`); Office treats an empty value as "no co-authoring".
    public var fileGeoLocationCode: String
    /// Where the files' alternate content streams, content properties and sequence numbers are kept (CSPP Plus
    /// incremental file transfer). In memory by default: give several hosts one shared store.
    public var contentStreams: any ContentStreamStore = InMemoryContentStreamStore()
    /// Where upload sessions (resumable file transfer) and their bytes are kept. In this process by default (the
    /// bytes in private temporary files): give several hosts one shared store, so that any of them continues and
    /// commits a session another started.
    public var uploadSessions: any UploadSessionStore = InMemoryUploadSessionStore()

    /// Co-authoring with endpoints from `endpoints`.
    public init(endpoints: EndpointSource, fileGeoLocationCode: String) {
        self.endpoints = endpoints
        self.fileGeoLocationCode = fileGeoLocationCode
    }

    /// The endpoints now, or `nil` when discovery cannot give them.
    public func currentEndpoints() async -> CoauthoringEndpoints? {
        switch endpoints {
        case .fixed(let endpoints): endpoints
        case .discovery(let client): (try? await client.discovery()).flatMap(CoauthoringEndpoints.init(discovery:))
        }
    }
}
