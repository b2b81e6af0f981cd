import Foundation
import HTTPTypes
import WOPIModels
import WOPIStorage

extension WOPIHost {
    func handleContainer(
        _ id: ItemID, endpoint: WOPIRoute.ContainerEndpoint, override: String?, request: WOPIRequest,
        context: RequestContext
    ) async throws -> WOPIResponse {
        switch (endpoint, request.method, override) {
        case (.info, .get, _):
            return try .json(try await checkContainerInfo(try await storage.container(id), context: context))
        case (.info, .post, WOPIOverride.createChildContainer):
            try context.require(context.access.canCreateChildren, "creating folders here")
            let target = try await resolve(TargetName(request), in: id, sourceName: nil, isContainer: true)
            let created = try await storage.createContainer(named: target.name, in: id)
            return try .json(try await containerPointer(created, context: context))
        case (.info, .post, WOPIOverride.createChildFile):
            try context.require(context.access.canCreateChildren, "creating files here")
            let target = try await resolve(TargetName(request), in: id, sourceName: nil, isContainer: false)
            let created = try await storage.createFile(
                named: target.name, in: id, content: .empty, overwrite: target.replacing != nil)
            return try .json(newFileResponse(created, context: context))
        case (.info, .post, WOPIOverride.deleteContainer):
            try context.require(context.access.canDelete, "deleting the folder")
            try await storage.delete(id)
            return WOPIResponse(status: .ok)
        case (.info, .post, WOPIOverride.renameContainer):
            try context.require(context.access.canRename, "renaming the folder")
            return try await renameContainer(id, request: request)
        case (.children, .get, _):
            return try .json(try await enumerateChildren(id, request: request, context: context))
        case (.ancestry, .get, _):
            return try .json(try await ancestorsResponse(try await storage.ancestors(of: id), context: context))
        case (.ecosystemPointer, .get, _):
            return try .json(URLResponse(url: context.withToken(context.ecosystemSrc, for: .ecosystem, signer: tokens)))
        default:
            throw unsupported(override, on: "containers/\(endpoint.rawValue)")
        }
    }

    /// CheckContainerInfo for the calling user: the abilities from the policy (limited by the token), then the
    /// policy's own adjustments. A root is never renamed or deleted.
    func checkContainerInfo(_ container: ContainerMetadata, context: RequestContext) async throws
        -> CheckContainerInfo
    {
        let access = try await policy.access(of: context.user, to: .container(container))
            .limited(to: context.token.permission)
        var info = CheckContainerInfo(name: configuration.fileNameRules.sanitized(container.name))
        info.userCanCreateChildContainer = access.canCreateChildren
        info.userCanCreateChildFile = access.canCreateChildren
        info.userCanDelete = access.canDelete && !container.isRoot
        info.userCanRename = access.canRename && !container.isRoot
        info.isAnonymousUser = false
        info.isEduUser = configuration.isEduUser
        info.licenseCheckForEditIsEnabled = configuration.licenseCheckForEditIsEnabled
        try await policy.describe(container: container, &info, user: context.user, access: access)
        return info
    }

    func containerPointer(_ container: ContainerMetadata, context: RequestContext) async throws
        -> ContainerPointerResponse
    {
        ContainerPointerResponse(
            containerPointer: NamedURL(
                name: configuration.fileNameRules.sanitized(container.name),
                url: context.withToken(
                    context.containerSrc(container.id), for: .container(container.id), signer: tokens)),
            containerInfo: try await checkContainerInfo(container, context: context))
    }

    /// EnumerateChildren (Docs/wopi-protocol.md §7.2), with `X-WOPI-FileExtensionFilterList` matched
    /// case-insensitively.
    func enumerateChildren(_ id: ItemID, request: WOPIRequest, context: RequestContext) async throws
        -> EnumerateChildrenResponse
    {
        let filter = request.header(WOPIHeader.fileExtensionFilterList).map { list in
            Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        }
        var containers: [NamedURL] = []
        var files: [ChildFile] = []
        for child in try await storage.children(of: id).sorted(by: { $0.name < $1.name })
        where try await policy.access(of: context.user, to: child).permission > .none {
            switch child {
            case .container(let container):
                containers.append(
                    NamedURL(
                        name: configuration.fileNameRules.sanitized(container.name),
                        url: context.withToken(
                            context.containerSrc(container.id), for: .container(container.id), signer: tokens)))
            case .file(let file):
                if let filter {
                    guard let ext = FileNameRules.split(file.name).extension, filter.contains("." + ext.lowercased())
                    else { continue }
                }
                files.append(
                    ChildFile(
                        name: configuration.fileNameRules.sanitized(file.name),
                        url: context.withToken(context.fileSrc(file.id), for: .file(file.id), signer: tokens),
                        size: file.size, version: file.version,
                        lastModifiedTime: WOPIJSON.timestamp(file.lastModified)))
            }
        }
        return EnumerateChildrenResponse(childContainers: containers, childFiles: files)
    }

    /// RenameContainer (Docs/wopi-protocol.md §7.7): exact name; 400 when illegal, 409 when a sibling has it.
    func renameContainer(_ id: ItemID, request: WOPIRequest) async throws -> WOPIResponse {
        guard let header = request.header(WOPIHeader.requestedName) else {
            throw WOPIHTTPError.badRequest("RenameContainer needs X-WOPI-RequestedName.")
        }
        let name = UTF7.decodeLeniently(header)
        if let problem = configuration.fileNameRules.problem(with: name) ?? StorageName.problem(with: name) {
            var error = WOPIHTTPError.badRequest("The name cannot be used: \(problem).")
            error.headers[HTTPField.Name(WOPIHeader.invalidContainerNameError)!] = problem
            throw error
        }
        _ = try await storage.rename(id, to: name)
        return try .json(RenameResponse(name: name))
    }
}
