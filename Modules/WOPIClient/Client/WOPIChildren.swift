/// The answer of EnumerateChildren: the containers and files directly inside a container.
public struct WOPIChildren: Sendable, Hashable {
    /// The child containers.
    public var containers: [WOPIContainerPointer]
    /// The child files.
    public var files: [WOPIFilePointer]

    /// Creates a listing.
    public init(containers: [WOPIContainerPointer], files: [WOPIFilePointer]) {
        self.containers = containers
        self.files = files
    }
}
