import Foundation
import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// PutRelativeFile (Docs/wopi-protocol.md §4.9): a new file from the body, beside the source file.
    func putRelativeFile(_ id: ItemID, request: WOPIRequest, context: RequestContext) async throws -> WOPIResponse {
        let source = try await storage.file(id)
        let target = try await resolve(
            TargetName(request), in: source.parentID, sourceName: source.name, isContainer: false)
        try await check(
            .putRelativeFile(source: source, name: target.name, replacing: target.replacing != nil), context: context)
        let created = try await storage.createFile(
            named: target.name, in: source.parentID, content: limited(request.body), overwrite: target.replacing != nil)
        return try .json(try await newFileResponse(created, context: context))
    }

    /// RenameFile (Docs/wopi-protocol.md §4.10): the requested name has no extension; the old extension is kept, the ID
    /// too.
    func renameFile(_ id: ItemID, request: WOPIRequest, context: RequestContext) async throws -> WOPIResponse {
        guard let header = request.header(WOPIHeader.requestedName) else {
            throw WOPIHTTPError.badRequest("RenameFile needs X-WOPI-RequestedName.")
        }
        let file = try await storage.file(id)
        try await applyLockRules(.renameFile(request.header(WOPIHeader.lock)), on: id, request: request)
        let requested = UTF7.decodeLeniently(header)
        let suffix = FileNameRules.split(file.name).extension.map { "." + $0 } ?? ""
        var name = Self.fitToStorage(configuration.fileNameRules.sanitized(requested + suffix))
        guard configuration.fileNameRules.problem(with: name) == nil, StorageName.problem(with: name) == nil else {
            var error = WOPIHTTPError.badRequest("The name \"\(requested)\" cannot be used for a file.")
            error.headers[.wopiInvalidFileNameError] = "The name is empty or not allowed."
            throw error
        }
        if name != file.name {
            let taken = Set(try await storage.children(of: file.parentID).map(\.name))
            name = configuration.fileNameRules.uniqueName(for: name, isTaken: { taken.contains($0) })
            try await check(.rename(.file(file), to: name), context: context)
            _ = try await storage.rename(id, to: name)
        }
        return try .json(RenameResponse(name: FileNameRules.split(name).base))
    }

    /// The body of PutRelativeFile and CreateChildFile (Docs/wopi-protocol.md §4.9): the new file's name and URL,
    /// plus the `HostViewUrl` and `HostEditUrl` that the policy gives the file in CheckFileInfo (the host pages),
    /// which Office for the web opens next.
    func newFileResponse(_ file: FileMetadata, context: RequestContext) async throws -> NewFileResponse {
        let name = configuration.fileNameRules.sanitized(file.name)
        var pages = CheckFileInfo(baseFileName: name, ownerID: file.ownerID, size: file.size, version: file.version)
        let access = try await self.access(of: context.user, to: .file(file))
        try await decorate(file: file, &pages, user: context.user, access: access)
        return NewFileResponse(
            name: name, url: context.withToken(context.fileSrc(file.id), for: .file(file.id), signer: tokens),
            hostViewURL: pages.hostViewURL, hostEditURL: pages.hostEditURL)
    }
}
