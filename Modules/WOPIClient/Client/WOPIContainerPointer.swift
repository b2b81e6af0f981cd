public import WOPIModels

/// A container as a host points at it: its name, its endpoint with a token, and its info when the host sent it
/// (GetRootContainer, CreateChildContainer, EnumerateChildren, EnumerateAncestors).
public struct WOPIContainerPointer: Sendable, Hashable {
    /// The container's name.
    public var name: String
    /// The container's endpoint and token.
    public var resource: WOPIResource
    /// The CheckContainerInfo content, when the host included it.
    public var info: CheckContainerInfo?

    /// Creates a pointer.
    public init(name: String, resource: WOPIResource, info: CheckContainerInfo? = nil) {
        self.name = name
        self.resource = resource
        self.info = info
    }

    /// Reads a `{Name, Url}` entry.
    ///
    /// - Throws: ``WOPIClientError/Code/protocolViolation`` when the URL is not a container endpoint.
    public init(_ named: NamedURL, info: CheckContainerInfo? = nil) throws {
        let resource = try WOPIResource(string: named.url)
        guard resource.kind == .container else {
            throw WOPIClientError(.protocolViolation, "The host pointed at \(resource) where a container was expected.")
        }
        self.init(name: named.name, resource: resource, info: info)
    }

    /// Reads a `{ContainerPointer, ContainerInfo}` body.
    public init(_ response: ContainerPointerResponse) throws {
        try self.init(response.containerPointer, info: response.containerInfo)
    }
}
