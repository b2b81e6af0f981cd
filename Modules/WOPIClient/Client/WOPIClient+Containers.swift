import HTTPTypes
public import WOPIModels

extension WOPIClient {
    /// CheckContainerInfo (`GET …/containers/{id}`).
    public func checkContainerInfo(_ container: WOPIResource) async throws -> CheckContainerInfo {
        try requireKind(.container, container, "CheckContainerInfo")
        return try await json(CheckContainerInfo.self, Call("CheckContainerInfo", .get, container))
    }

    /// EnumerateChildren (`GET …/containers/{id}/children`).
    ///
    /// - Parameter extensions: keep only files with these extensions (`[".docx", ".xlsx"]`, leading dot
    ///   optional, case-insensitive); containers are never filtered. `nil` lists everything.
    public func enumerateChildren(of container: WOPIResource, extensions: [String]? = nil) async throws
        -> WOPIChildren
    {
        try requireKind(.container, container, "EnumerateChildren")
        var call = Call("EnumerateChildren", .get, container, suffix: "children")
        if let extensions, !extensions.isEmpty {
            call.set(
                WOPIHeader.fileExtensionFilterList,
                extensions.map { $0.hasPrefix(".") ? $0 : "." + $0 }.joined(separator: ","))
        }
        let response = try await json(EnumerateChildrenResponse.self, call)
        return WOPIChildren(
            containers: try response.childContainers.map { try WOPIContainerPointer($0) },
            files: try response.childFiles.map { try WOPIFilePointer($0) })
    }

    /// EnumerateAncestors of a file or container: its containers, root first and direct parent last (empty for
    /// a root).
    public func enumerateAncestors(of item: WOPIResource) async throws -> [WOPIContainerPointer] {
        guard item.kind != .ecosystem else {
            throw WOPIClientError(.badRequest, "EnumerateAncestors needs a file or container endpoint.")
        }
        let response = try await json(
            AncestorsResponse.self, Call("EnumerateAncestors", .get, item, suffix: "ancestry"))
        return try response.ancestorsWithRootFirst.map { try WOPIContainerPointer($0) }
    }

    /// CreateChildContainer: a new container in `container`.
    public func createChildContainer(in container: WOPIResource, name: WOPINameTarget) async throws
        -> WOPIContainerPointer
    {
        try requireKind(.container, container, "CreateChildContainer")
        var call = Call("CreateChildContainer", .post, container)
        call.set(WOPIHeader.override, WOPIOverride.createChildContainer)
        name.apply(to: &call.headers)
        return try WOPIContainerPointer(try await json(ContainerPointerResponse.self, call))
    }

    /// CreateChildFile: a new zero-byte file in `container`; write it with ``putFile(_:content:lock:progress:)``.
    public func createChildFile(in container: WOPIResource, name: WOPINameTarget) async throws -> WOPIFilePointer {
        try requireKind(.container, container, "CreateChildFile")
        var call = Call("CreateChildFile", .post, container)
        call.set(WOPIHeader.override, WOPIOverride.createChildFile)
        name.apply(to: &call.headers)
        let response = try await json(NewFileResponse.self, call)
        return try WOPIFilePointer(name: response.name, url: response.url)
    }

    /// DeleteContainer: deletes an empty container (``WOPIClientError/Code/conflict`` when it has children).
    public func deleteContainer(_ container: WOPIResource) async throws {
        try requireKind(.container, container, "DeleteContainer")
        var call = Call("DeleteContainer", .post, container)
        call.set(WOPIHeader.override, WOPIOverride.deleteContainer)
        await Self.discard(try await send(call).body)
    }

    /// RenameContainer: gives a container a new name (sent UTF-7 encoded); returns the name the host reports.
    public func renameContainer(_ container: WOPIResource, to name: String) async throws -> String {
        try requireKind(.container, container, "RenameContainer")
        var call = Call("RenameContainer", .post, container)
        call.set(WOPIHeader.override, WOPIOverride.renameContainer)
        call.set(WOPIHeader.requestedName, UTF7.encode(name))
        return try await json(RenameResponse.self, call).name
    }
}
