import WOPIDeployment
import WOPIServer

/// Every decision of the example host beyond its policy, in one place: `serve` and each command that acts for a user
/// (`import`, `token`, `share`, `unshare`, `mount`) build their host with these, so a change guard added here (a quota, a file-type rule)
/// holds for WOPI, the host pages, the command line and the mount alike.
enum ExampleDecisions {
    /// What sees, and may veto, every change: none in the example; a provider adds theirs here.
    static let changeGuards: [any ChangeGuard] = []

    /// A host over `stores` for a command (no listener): its door decides as `serve`'s does, with the storage
    /// quota of `directory` (`wopi-host quota`).
    static func host(_ stores: DeploymentStores, _ directory: DataDirectory) async throws -> WOPIHost {
        var configuration = WOPIDeployment.Configuration()
        configuration.storageQuota = directory.storageQuota
        return try await WOPIDeployment(stores: stores, configuration: configuration, changeGuards: changeGuards).host
    }
}
