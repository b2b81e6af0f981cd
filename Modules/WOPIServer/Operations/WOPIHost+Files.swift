import Foundation
import HTTPTypes
import NIOCore
import WOPIModels
import WOPIStorage

extension WOPIHost {
    func handleFile(
        _ id: ItemID, endpoint: WOPIRoute.FileEndpoint, override: String?, request: WOPIRequest,
        context: RequestContext
    ) async throws -> WOPIResponse {
        switch (endpoint, request.method, override) {
        case (.info, .get, _):
            return try .json(try await checkFileInfo(id, context: context))
        case (.info, .post, let override?):
            switch override {
            case WOPIOverride.getLock:
                return try await handleLockOperation(override, file: id, request: request)
            case WOPIOverride.lock, WOPIOverride.refreshLock, WOPIOverride.unlock:
                try context.require(context.access.canWrite, "locking the file")
                return try await handleLockOperation(override, file: id, request: request)
            case WOPIOverride.putRelative:
                try context.require(context.access.canCreateChildren, "creating files next to this one")
                return try await putRelativeFile(id, request: request, context: context)
            case WOPIOverride.renameFile:
                try context.require(context.access.canRename, "renaming the file")
                return try await renameFile(id, request: request)
            case WOPIOverride.delete:
                try context.require(context.access.canDelete, "deleting the file")
                return try await deleteFile(id)
            case WOPIOverride.putUserInfo:
                return try await putUserInfo(request, context: context)
            default:
                throw unsupported(override, on: "files")
            }
        case (.contents, .get, _):
            return try await getFile(id, request: request)
        case (.contents, .post, WOPIOverride.put):
            try context.require(context.access.canWrite, "changing the file")
            return try await putFile(id, request: request)
        case (.ancestry, .get, _):
            let ancestors = try await storage.ancestors(of: id)
            return try .json(await ancestorsResponse(ancestors, context: context))
        case (.ecosystemPointer, .get, _):
            return try .json(URLResponse(url: context.withToken(context.ecosystemSrc, for: .ecosystem, signer: tokens)))
        default:
            throw unsupported(override, on: "files/\(endpoint.rawValue)")
        }
    }

    // MARK: - CheckFileInfo

    func checkFileInfo(_ id: ItemID, context: RequestContext) async throws -> CheckFileInfo {
        let file = try await storage.file(id)
        var info = CheckFileInfo(
            baseFileName: configuration.fileNameRules.sanitized(file.name), ownerID: file.ownerID, size: file.size,
            version: file.version)
        info.userID = context.user.id
        info.userFriendlyName = context.user.displayName
        info.userInfo = context.user.userInfo
        info.isEduUser = configuration.isEduUser
        info.licenseCheckForEditIsEnabled = configuration.licenseCheckForEditIsEnabled
        info.userCanWrite = context.access.canWrite
        info.userCanRename = context.access.canRename
        info.userCanNotWriteRelative = !context.access.canCreateChildren
        info.readOnly = !context.access.canWrite
        info.supportsLocks = true
        info.supportsGetLock = true
        info.supportsExtendedLockLength = true
        info.supportsUpdate = true
        info.supportsRename = true
        info.supportsDeleteFile = true
        info.supportsContainers = true
        info.supportsEcosystem = true
        info.supportsUserInfo = true
        if let ext = FileNameRules.split(file.name).extension { info.fileExtension = "." + ext }
        info.fileNameMaxLength = configuration.fileNameRules.limit
        info.lastModifiedTime = WOPIJSON.timestamp(file.lastModified)
        info.sha256 = file.sha256?.base64EncodedString()
        try await policy.describe(file: file, &info, user: context.user, access: context.access)
        return info
    }

    // MARK: - GetFile and PutFile

    func getFile(_ id: ItemID, request: WOPIRequest) async throws -> WOPIResponse {
        var maximum = Int64(Int32.max)
        if let header = request.header(WOPIHeader.maxExpectedSize) {
            guard let value = Int64(header.trimmingCharacters(in: .whitespaces)), value >= 0 else {
                throw WOPIHTTPError.badRequest("X-WOPI-MaxExpectedSize must be a non-negative integer.")
            }
            maximum = value
        }
        let file = try await storage.file(id)
        guard file.size <= maximum else {
            throw WOPIHTTPError(
                .preconditionFailed, "The file is \(file.size) bytes, more than X-WOPI-MaxExpectedSize.")
        }
        let content = try await storage.readFile(id)
        var response = WOPIResponse(
            status: .ok, body: .stream(ByteStream(content.body, knownLength: content.metadata.size)))
        response.headers[.contentType] = "application/octet-stream"
        response.setHeader(WOPIHeader.itemVersion, content.metadata.version)
        return response
    }

    func putFile(_ id: ItemID, request: WOPIRequest) async throws -> WOPIResponse {
        let file = try await storage.file(id)
        try await applyLockRules(.putFile(request.header(WOPIHeader.lock), currentSize: file.size), on: id)
        let updated = try await storage.writeFile(id, content: limited(request.body), expectedVersion: nil)
        var response = WOPIResponse(status: .ok)
        response.setHeader(WOPIHeader.itemVersion, updated.version)
        logger.info(
            "PutFile", metadata: ["file": "\(id)", "size": "\(updated.size)", "version": "\(updated.version)"])
        return response
    }

    /// The body, failing with `413` once it passes ``WOPIHostConfiguration/maximumFileSize``.
    func limited(_ body: ByteStream) throws -> ByteStream {
        guard let limit = configuration.maximumFileSize else { return body }
        if let length = body.knownLength, length > limit {
            throw WOPIHTTPError(.contentTooLarge, "The file is larger than the \(limit) bytes this host accepts.")
        }
        return ByteStream(knownLength: body.knownLength) {
            var iterator = body.makeAsyncIterator()
            var total: Int64 = 0
            return {
                guard let chunk = try await iterator.next() else { return nil }
                total += Int64(chunk.readableBytes)
                if total > limit {
                    throw StorageError(.tooLarge, "The file is larger than the \(limit) bytes this host accepts.")
                }
                return chunk
            }
        }
    }

    // MARK: - DeleteFile, PutUserInfo

    func deleteFile(_ id: ItemID) async throws -> WOPIResponse {
        _ = try await storage.file(id)
        try await applyLockRules(.deleteFile, on: id)
        try await storage.delete(id)
        return WOPIResponse(status: .ok)
    }

    func putUserInfo(_ request: WOPIRequest, context: RequestContext) async throws -> WOPIResponse {
        let body = try await request.body.collect(upTo: 1024)
        let info = String(buffer: body)
        guard info.utf8.allSatisfy({ $0 < 0x80 }) else {
            throw WOPIHTTPError.badRequest("UserInfo must be at most 1024 ASCII characters.")
        }
        try await users.setUserInfo(info, for: context.user.id)
        return WOPIResponse(status: .ok)
    }

    // MARK: - Ancestry

    /// The ancestors the user may see, root first: a grantee of a shared folder does not see the owner's folders
    /// above it.
    func ancestorsResponse(_ ancestors: [ContainerMetadata], context: RequestContext) async throws
        -> AncestorsResponse
    {
        var visible: [ContainerMetadata] = []
        for container in ancestors
        where try await policy.access(of: context.user, to: .container(container))
            .permission > .none
        {
            visible.append(container)
        }
        return AncestorsResponse(
            ancestorsWithRootFirst: visible.map { container in
                NamedURL(
                    name: configuration.fileNameRules.sanitized(container.name),
                    url: context.withToken(
                        context.containerSrc(container.id), for: .container(container.id), signer: tokens))
            })
    }
}
