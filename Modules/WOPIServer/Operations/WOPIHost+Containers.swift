import Foundation
import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// CreateChildContainer: a folder named by the request's target headers (Docs/wopi-protocol.md §6).
    func createChildContainer(in id: ItemID, request: WOPIRequest, context: RequestContext) async throws
        -> WOPIResponse
    {
        let target = try await resolve(TargetName(request), in: id, sourceName: nil, isContainer: true)
        try await check(.create(name: target.name, in: context.container(), isContainer: true), context: context)
        let created = try await storage.createContainer(named: target.name, in: id)
        return try .json(try await containerPointer(created, context: context))
    }

    /// CreateChildFile: an empty file named by the request's target headers (Docs/wopi-protocol.md §6).
    func createChildFile(in id: ItemID, request: WOPIRequest, context: RequestContext) async throws -> WOPIResponse {
        let target = try await resolve(TargetName(request), in: id, sourceName: nil, isContainer: false)
        try await check(.create(name: target.name, in: context.container(), isContainer: false), context: context)
        let created = try await storage.createFile(
            named: target.name, in: id, content: .empty, overwrite: target.replacing != nil)
        return try .json(try await newFileResponse(created, context: context))
    }

    /// CheckContainerInfo for the calling user with `access` (the policy's, limited by the token), then the policy's
    /// own adjustments. A root is never renamed or deleted.
    func checkContainerInfo(_ container: ContainerMetadata, access: ItemAccess, context: RequestContext) async throws
        -> CheckContainerInfo
    {
        var info = CheckContainerInfo(name: configuration.fileNameRules.sanitized(container.name))
        info.userCanCreateChildContainer = access.canCreateChildren
        info.userCanCreateChildFile = access.canCreateChildren
        info.userCanDelete = access.canDelete && !container.isRoot
        info.userCanRename = access.canRename && !container.isRoot
        info.isAnonymousUser = false
        info.isEduUser = configuration.isEduUser
        info.licenseCheckForEditIsEnabled = configuration.licenseCheckForEditIsEnabled
        if access.isOwner, configuration.shareLinks != nil {
            info.supportedShareUrlTypes = ShareURLType.allCases.map(\.rawValue)
        }
        try await decorate(container: container, &info, user: context.user, access: access)
        return info
    }

    /// The pointer to a container the request did not authorize (a new one): the policy is asked for it.
    func containerPointer(_ container: ContainerMetadata, context: RequestContext) async throws
        -> ContainerPointerResponse
    {
        let access = try await self.access(of: context.user, to: .container(container))
            .limited(to: context.token.permission)
        return ContainerPointerResponse(
            containerPointer: namedURL(container, context: context),
            containerInfo: try await checkContainerInfo(container, access: access, context: context))
    }

    /// A container's name and WOPI URL with a token traded from the request's.
    func namedURL(_ container: ContainerMetadata, context: RequestContext) -> NamedURL {
        NamedURL(
            name: configuration.fileNameRules.sanitized(container.name),
            url: context.withToken(context.containerSrc(container.id), for: .container(container.id), signer: tokens))
    }

    /// EnumerateChildren (Docs/wopi-protocol.md §7.2): the children the user may see, and "Shared with me" in the
    /// user's own root while something is shared with them. One storage read lists the children with everything the
    /// answer needs; the answer streams (``ChildrenListing``).
    func enumerateChildren(_ id: ItemID, request: WOPIRequest, context: RequestContext) async throws
        -> WOPIResponse
    {
        let children = try await storage.children(of: id)
        let accesses = try await self.access(of: context.user, to: children)
        var visible: [StorageItem] = []
        visible.reserveCapacity(children.count)
        for (child, access) in zip(children, accesses) where access.permission > .none { visible.append(child) }
        var listing = childrenListing(visible, request: request, context: context)
        if case .container(let container)? = context.item, container.isRoot, container.ownerID == context.user.id,
            try await !policy.sharedItems(with: context.user).isEmpty
        {
            listing.containers.append(ChildrenListing.Container(name: SharedWithMe.name, id: SharedWithMe.id))
        }
        return listing.response()
    }

    /// The listing of `items` sorted by name, with `X-WOPI-FileExtensionFilterList` matched case-insensitively.
    func childrenListing(_ items: [StorageItem], request: WOPIRequest, context: RequestContext) -> ChildrenListing {
        let filter = request.header(WOPIHeader.fileExtensionFilterList).map { list in
            Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        }
        var listing = ChildrenListing(
            containers: [], files: [], nameRules: configuration.fileNameRules, context: context, signer: tokens)
        for child in items.sortedByName() {
            switch child {
            case .container(let container):
                listing.containers.append(
                    ChildrenListing.Container(
                        name: configuration.fileNameRules.sanitized(container.name), id: container.id))
            case .file(let file):
                if let filter {
                    guard let ext = FileNameRules.split(file.name).extension, filter.contains("." + ext.lowercased())
                    else { continue }
                }
                listing.files.append(file)
            }
        }
        return listing
    }

    /// RenameContainer (Docs/wopi-protocol.md §7.7): exact name; 400 when illegal, 409 when a sibling has it.
    func renameContainer(_ id: ItemID, request: WOPIRequest, context: RequestContext) async throws -> WOPIResponse {
        guard let header = request.header(WOPIHeader.requestedName) else {
            throw WOPIHTTPError.badRequest("RenameContainer needs X-WOPI-RequestedName.")
        }
        let name = UTF7.decodeLeniently(header)
        if let problem = configuration.fileNameRules.problem(with: name) ?? StorageName.problem(with: name) {
            var error = WOPIHTTPError.badRequest("The name cannot be used: \(problem).")
            error.headers[.wopiInvalidContainerNameError] = problem
            throw error
        }
        try await check(.rename(storage.item(id), to: name), context: context)
        _ = try await storage.rename(id, to: name)
        return try .json(RenameResponse(name: name))
    }
}
