public import WOPIModels

/// A signed-in "place" (Office's *Add a Place*): who the user is, their ecosystem and their root container.
public struct WOPIPlace: Sendable, Hashable {
    /// The profile from Bootstrap.
    public var bootstrap: BootstrapInfo
    /// The ecosystem endpoint and token (`EcosystemUrl`).
    public var ecosystem: WOPIResource
    /// The user's root container.
    public var root: WOPIContainerPointer

    /// Creates a place.
    public init(bootstrap: BootstrapInfo, ecosystem: WOPIResource, root: WOPIContainerPointer) {
        self.bootstrap = bootstrap
        self.ecosystem = ecosystem
        self.root = root
    }
}
