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
            case WOPIOverride.lock, WOPIOverride.getLock, WOPIOverride.refreshLock, WOPIOverride.unlock:
                return try await handleLockOperation(override, file: id, request: request)
            case WOPIOverride.putRelative:
                return try await putRelativeFile(id, request: request, context: context)
            case WOPIOverride.renameFile:
                return try await renameFile(id, request: request)
            case WOPIOverride.delete:
                return try await deleteFile(id)
            case WOPIOverride.putUserInfo:
                return try await putUserInfo(request, context: context)
            default:
                throw unsupported(override, on: "files")
            }
        case (.contents, .get, _):
            return try await getFile(id, request: request)
        case (.contents, .post, WOPIOverride.put):
            return try await putFile(id, request: request)
        case (.ancestry, .get, _):
            let ancestors = try await storage.ancestors(of: id)
            return try .json(ancestorsResponse(ancestors, context: context))
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
        info.userCanWrite = true
        info.userCanRename = true
        info.userCanNotWriteRelative = false
        info.readOnly = false
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

    func ancestorsResponse(_ ancestors: [ContainerMetadata], context: RequestContext) -> AncestorsResponse {
        AncestorsResponse(
            ancestorsWithRootFirst: ancestors.map { container in
                NamedURL(
                    name: configuration.fileNameRules.sanitized(container.name),
                    url: context.withToken(
                        context.containerSrc(container.id), for: .container(container.id), signer: tokens))
            })
    }
}
