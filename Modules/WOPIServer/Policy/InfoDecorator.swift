public import WOPIModels
public import WOPIStorage

/// Adds to what the host tells a WOPI client about a file, a container or the ecosystem: branding, host page URLs,
/// an editor's own properties, a watermark.
///
/// Open for third-party conformances. The host has already filled every property from the user's
/// ``ItemAccess``; each decorator changes what it is for, in the order registered
/// (`WOPIHost(…, decorators:)`), and leaves the rest. Decorators do not decide access: that is the
/// ``AccessPolicy``'s, and a decorator sees its answer.
///
/// ```swift
/// struct Branding: InfoDecorator {
///     func decorate(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) {
///         info.breadcrumbBrandName = "Contoso Drive"
///     }
/// }
/// ```
public protocol InfoDecorator: Sendable {
    /// Adjusts the CheckFileInfo the host built for `user` and `file`.
    func decorate(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) async throws

    /// Adjusts the CheckContainerInfo the host built for `user` and `container`.
    func decorate(
        container: ContainerMetadata, _ info: inout CheckContainerInfo, user: WOPIUser, access: ItemAccess
    ) async throws

    /// Adjusts the CheckEcosystem the host built for `user` (for example `SupportsContainers: false` for users who
    /// may not browse).
    func decorate(ecosystem info: inout CheckEcosystemResponse, user: WOPIUser) async throws
}

extension InfoDecorator {
    /// Leaves CheckFileInfo as it is.
    public func decorate(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess)
        async throws
    {}

    /// Leaves CheckContainerInfo as it is.
    public func decorate(
        container: ContainerMetadata, _ info: inout CheckContainerInfo, user: WOPIUser, access: ItemAccess
    ) async throws {}

    /// Leaves CheckEcosystem as it is.
    public func decorate(ecosystem info: inout CheckEcosystemResponse, user: WOPIUser) async throws {}
}
