import Foundation
import HTTPTypes
import Logging
import Metrics
import NIOCore
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    // MARK: - CheckFileInfo

    func checkFileInfo(_ id: ItemID, context: RequestContext) async throws -> CheckFileInfo {
        let file = try await context.file(id, in: storage)
        var info = CheckFileInfo(
            baseFileName: configuration.fileNameRules.sanitized(file.name), ownerID: file.ownerID, size: file.size,
            version: file.version)
        info.userID = context.user.id
        info.userFriendlyName = context.user.displayName
        info.userInfo = context.user.userInfo
        info.isEduUser = configuration.isEduUser
        info.licenseCheckForEditIsEnabled = configuration.licenseCheckForEditIsEnabled
        info.describeRole(of: context.access, user: context.user)
        info.userCanRename = context.access.canRename
        info.userCanNotWriteRelative = !context.access.canCreateChildren
        info.supportsLocks = true
        info.supportsGetLock = true
        info.supportsExtendedLockLength = true
        info.supportsUpdate = true
        info.supportsRename = true
        info.supportsDeleteFile = true
        info.supportsContainers = true
        info.supportsEcosystem = true
        info.supportsUserInfo = true
        info.supportsAddActivities = true
        if context.access.isOwner, configuration.shareLinks != nil {
            info.supportedShareURLTypes = ShareURLType.allCases.map(\.rawValue)
        }
        if let ext = FileNameRules.split(file.name).extension { info.fileExtension = "." + ext }
        info.fileNameMaxLength = configuration.fileNameRules.limit
        info.lastModifiedTime = WOPIJSON.timestamp(file.lastModified)
        info.sha256 = file.sha256?.base64EncodedString()
        info.fileURL = context.access.canRead ? fileURL(for: file.id, context: context) : nil
        info.templateSource = try await templateSource(for: file, context: context)
        try await decorate(file: file, &info, user: context.user, access: context.access)
        await describeCoauthoring(&info, file: file, context: context)
        return info
    }

    // MARK: - PutFile (GetFile: WOPIHost+Content.swift)

    /// PutFile (Docs/wopi-protocol.md §4.8), with Collabora Online's timestamp check: a PutFile whose
    /// `X-COOL-WOPI-Timestamp` is not the file's `LastModifiedTime` gets 409 `{"COOLStatusCode": 1010}`, and one
    /// that carries it writes only over the version it names.
    func putFile(_ id: ItemID, request: WOPIRequest, context: RequestContext) async throws -> WOPIResponse {
        let content = try limited(request.body)  // a declared length over the limit: 413 before anything else
        let file = try await context.file(id, in: storage)
        try await applyLockRules(
            .putFile(request.header(WOPIHeader.lock), currentSize: file.size), on: id, request: request)
        let headers = ClientSaveHeaders(request)
        let timestamp = headers.timestamp
        if let timestamp, !Self.sameTime(timestamp, file.lastModified) { throw Self.collaboraConflict() }
        try await check(.putFile(file, headers.details), context: context)
        let updated: FileMetadata
        do {
            updated = try await TracedWork.storage.traced("storage.writeFile", item: id) {
                try await storage.writeFile(
                    id, content: content, expectedVersion: timestamp == nil ? nil : file.version)
            }
        } catch let error as StorageError where error.code == .versionMismatch {
            throw Self.collaboraConflict()
        }
        metrics.putFileBytes.increment(by: updated.size)
        try await forgetTemplate(of: id)
        logger.info(
            "PutFile", metadata: ["file": "\(id)", "size": "\(updated.size)", "version": "\(updated.version)"])
        var response = WOPIResponse(status: .ok)
        if headers.speaksCollabora {
            response = try .json(["LastModifiedTime": WOPIJSON.timestamp(updated.lastModified)])
        }
        response.setHeader(WOPIHeader.itemVersion, updated.version)
        return response
    }

    /// Whether a `LastModifiedTime` a client sent back names `date` (to the millisecond).
    static func sameTime(_ text: String, _ date: Date) -> Bool {
        if text == WOPIJSON.timestamp(date) { return true }
        guard let sent = WOPIJSON.date(from: text) else { return false }
        return abs(sent.timeIntervalSince(date)) < 0.001
    }

    /// Collabora's "the document changed behind your back" answer.
    static func collaboraConflict() -> WOPIHTTPError {
        var error = WOPIHTTPError(
            .conflict, "The file changed since the editor read it (X-COOL-WOPI-Timestamp is not its LastModifiedTime).")
        error.jsonBody = "{\"COOLStatusCode\":\(CollaboraHeader.documentChangedStatus)}"
        return error
    }

    /// GetFile's content, its bytes counted as they are sent.
    func counted(_ content: ByteStream) -> ByteStream {
        let sent = metrics.getFileBytes
        return ByteStream(knownLength: content.knownLength) {
            var iterator = content.makeAsyncIterator()
            return {
                guard let chunk = try await iterator.next() else { return nil }
                sent.increment(by: chunk.readableBytes)
                return chunk
            }
        }
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

    func deleteFile(_ id: ItemID, context: RequestContext) async throws -> WOPIResponse {
        let file = try await context.file(id, in: storage)
        try await applyLockRules(.deleteFile, on: id)
        try await check(.delete(.file(file)), context: context)
        try await storage.delete(id)
        await forgetContentStreams(of: id)
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

    /// The ancestors the user may see, root first. A grantee does not see the owner's folders above what is shared
    /// with them: their path is their own root, then "Shared with me", then the shared folders.
    func ancestorsResponse(_ ancestors: [ContainerMetadata], context: RequestContext) async throws
        -> AncestorsResponse
    {
        var path: [NamedURL] = []
        if let item = context.item, item.ownerID != context.user.id {
            path.append(namedURL(try await storage.rootContainer(forUser: context.user.id), context: context))
            path.append(sharedWithMeEntry(context: context))
        }
        let accesses = try await self.access(of: context.user, to: ancestors.map { .container($0) })
        for (container, access) in zip(ancestors, accesses) where access.permission > .none {
            path.append(namedURL(container, context: context))
        }
        return AncestorsResponse(ancestorsWithRootFirst: path)
    }
}
