import HTTPTypes
public import WOPIModels

extension WOPIClient {
    /// CheckEcosystem (`GET …/ecosystem`): what the host supports (`SupportsContainers`).
    ///
    /// - Parameter ecosystem: the `EcosystemUrl` of Bootstrap.
    public func checkEcosystem(_ ecosystem: WOPIResource) async throws -> CheckEcosystemResponse {
        try requireKind(.ecosystem, ecosystem, "CheckEcosystem")
        return try await json(CheckEcosystemResponse.self, Call("CheckEcosystem", .get, ecosystem))
    }

    /// GetRootContainer (ecosystem, `GET …/ecosystem/root_container_pointer`): the user's root container.
    public func rootContainer(ecosystem: WOPIResource) async throws -> WOPIContainerPointer {
        try requireKind(.ecosystem, ecosystem, "GetRootContainer")
        let response = try await json(
            ContainerPointerResponse.self,
            Call("GetRootContainer", .get, ecosystem, suffix: "root_container_pointer"))
        return try WOPIContainerPointer(response)
    }

    /// GetEcosystem (`GET …/files/{id}/ecosystem_pointer` or `…/containers/{id}/ecosystem_pointer`): the
    /// ecosystem endpoint, with a token, from a file or container.
    public func ecosystem(of item: WOPIResource) async throws -> WOPIResource {
        guard item.kind != .ecosystem else { return item }
        let response = try await json(URLResponse.self, Call("GetEcosystem", .get, item, suffix: "ecosystem_pointer"))
        let ecosystem = try WOPIResource(string: response.url)
        try requireKind(.ecosystem, ecosystem, "GetEcosystem")
        return ecosystem
    }

    /// Fails unless `resource` is of `kind`.
    func requireKind(_ kind: WOPIResource.Kind, _ resource: WOPIResource, _ call: String) throws {
        guard resource.kind == kind else {
            throw WOPIClientError(
                .badRequest, "\(call) needs a \(kind) endpoint, but was given a \(resource.kind); pass the right URL.")
        }
    }
}
