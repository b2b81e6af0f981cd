import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// Performs an authorized operation: the one `switch` over ``WOPIOperation``. The door already checked the
    /// operation's ``WOPIOperation/requirement`` (``admit(_:context:)``); each case calls the operation, which takes
    /// the item authorization read (``RequestContext/item``) rather than reading it again.
    func perform(_ operation: WOPIOperation, request: WOPIRequest, context: RequestContext) async throws
        -> WOPIResponse
    {
        switch operation {
        // MARK: Files
        case .checkFileInfo(let id):
            var info = try await checkFileInfo(id, context: context)
            offerIncrementalTransfer(&info, request: request)
            return try .json(info)
        case .getFile(let id):
            return try await getFile(id, request: request, context: context)
        case .putFile(let id):
            return try await putFile(id, request: request, context: context)
        case .lock(let id):
            return try await changeLock(
                .lock(request.header(WOPIHeader.lock)), file: id, request: request, context: context)
        case .unlockAndRelock(let id, let old):
            let change = LockRules.Request.unlockAndRelock(old: old, new: request.header(WOPIHeader.lock))
            return try await changeLock(change, file: id, request: request, context: context)
        case .refreshLock(let id):
            return try await changeLock(
                .refreshLock(request.header(WOPIHeader.lock)), file: id, request: request, context: context)
        case .unlock(let id):
            return try await changeLock(
                .unlock(request.header(WOPIHeader.lock)), file: id, request: request, context: context)
        case .getLock(let id):
            return try await getLock(id)
        case .putRelativeFile(let id):
            return try await putRelativeFile(id, request: request, context: context)
        case .renameFile(let id):
            return try await renameFile(id, request: request, context: context)
        case .deleteFile(let id):
            return try await deleteFile(id, context: context)
        case .putUserInfo:
            return try await putUserInfo(request, context: context)
        case .getFileShareURL(let id):
            return try await shareURL(for: .file(context.file(id, in: storage)), request: request, context: context)
        case .addActivities(let id):
            return try await addActivities(id, request: request, context: context)
        case .getTemplate(let id):
            return try await getTemplate(id, context: context)
        case .enumerateFileAncestors(let id):
            return try .json(await ancestorsResponse(try await storage.ancestors(of: id), context: context))
        case .changeCoauthLock(let id, let change):
            guard configuration.coauthoring != nil else { throw Self.unsupported("\(change.override) on files") }
            return try await changeCoauthLock(change, file: id, request: request, context: context)
        case .getCoauthTable(let id):
            guard configuration.coauthoring != nil else {
                throw Self.unsupported("\(WOPIOverride.getCoauthTable) on files")
            }
            return try await getCoauthTable(id, request: request)
        case .chunkedTransfer(let id, let transfer):
            guard let stores = chunkedTransferStores else { throw Self.unsupported("\(transfer.override) on files") }
            return try await chunkedTransfer(transfer, file: id, in: stores, request: request, context: context)
        case .getFileEcosystem, .getContainerEcosystem:
            return try .json(URLResponse(url: context.withToken(context.ecosystemSrc, for: .ecosystem, signer: tokens)))

        // MARK: "Shared with me": listed and described; every change refused
        case .checkContainerInfo(SharedWithMe.id):
            return try .json(SharedWithMe.containerInfo)
        case .enumerateChildren(SharedWithMe.id):
            let shared = try await policy.sharedItems(with: context.user)
            return childrenListing(shared, request: request, context: context).response()
        case .enumerateContainerAncestors(SharedWithMe.id):
            let root = try await storage.rootContainer(forUser: context.user.id)
            return try .json(AncestorsResponse(ancestorsWithRootFirst: [namedURL(root, context: context)]))
        case .createChildContainer(SharedWithMe.id), .createChildFile(SharedWithMe.id),
            .deleteContainer(SharedWithMe.id),
            .renameContainer(SharedWithMe.id), .getContainerShareURL(SharedWithMe.id):
            throw WOPIHTTPError.unauthorized(
                "\(SharedWithMe.name) lists other people's items: nothing can be created, renamed or deleted in it.")

        // MARK: Containers
        case .checkContainerInfo:
            let container = try context.container()
            return try .json(try await checkContainerInfo(container, access: context.access, context: context))
        case .createChildContainer(let id):
            return try await createChildContainer(in: id, request: request, context: context)
        case .createChildFile(let id):
            return try await createChildFile(in: id, request: request, context: context)
        case .deleteContainer(let id):
            try await check(.delete(.container(try context.container())), context: context)
            try await storage.delete(id)
            return WOPIResponse(status: .ok)
        case .renameContainer(let id):
            return try await renameContainer(id, request: request, context: context)
        case .getContainerShareURL:
            return try await shareURL(for: .container(try context.container()), request: request, context: context)
        case .enumerateChildren(let id):
            return try await enumerateChildren(id, request: request, context: context)
        case .enumerateContainerAncestors(let id):
            return try .json(try await ancestorsResponse(try await storage.ancestors(of: id), context: context))

        // MARK: Ecosystem
        case .checkEcosystem:
            var info = CheckEcosystemResponse(supportsContainers: true)
            try await decorate(ecosystem: &info, user: context.user)
            return try .json(info)
        case .getRootContainer:
            let root = try await storage.rootContainer(forUser: context.user.id)
            return try .json(try await containerPointer(root, context: context))
        case .getFileWopiSrc:
            let file = try await fileForNativeName(request.header(WOPIHeader.hostNativeFileName), user: context.user)
            let (token, expiresAt) = mintToken(for: context.user, resource: .file(file.id))
            await auditTokenMint(userID: context.user.id, resource: .file(file.id), via: "GetFileWopiSrc")
            let url = RequestContext.append(token: token, expiresAt: expiresAt, to: context.fileSrc(file.id))
            return try .json(URLResponse(url: url))

        // MARK: Not operations on an item
        case .unsupported(_, let description):
            throw Self.unsupported(description)
        case .bootstrap, .unknownItem, .getFromFileURL:
            throw WOPIHTTPError.notFound("No item has this ID.")  // answered before authorization
        }
    }
}
