import HTTPTypes
public import WOPIModels
public import WOPIStorage

extension WOPIClient {
    /// CheckFileInfo (`GET …/files/{id}`), with `X-WOPIKit-IncrementalTransfer`: a WOPIKit host that offers this
    /// client incremental transfer without co-authoring answers `SupportsChunkedFileTransfer`.
    public func checkFileInfo(_ file: WOPIResource) async throws -> CheckFileInfo {
        try requireKind(.file, file, "CheckFileInfo")
        var call = Call("CheckFileInfo", .get, file)
        // A WOPIKit host without co-authoring then says whether it offers incremental transfer to this client.
        call.set(WOPIHeader.wopiKitIncrementalTransfer, "1")
        return try await json(CheckFileInfo.self, call)
    }

    /// GetFile (`GET …/files/{id}/contents`): the content, streamed.
    ///
    /// - Parameters:
    ///   - maxExpectedSize: sent as `X-WOPI-MaxExpectedSize`; a larger file fails with
    ///     ``WOPIClientError/Code/preconditionFailed``.
    ///   - progress: called as bytes arrive.
    public func getFile(_ file: WOPIResource, maxExpectedSize: Int64? = nil, progress: TransferProgress? = nil)
        async throws -> WOPIDownload
    {
        try requireKind(.file, file, "GetFile")
        var call = Call("GetFile", .get, file, suffix: "contents")
        call.isTransfer = true
        if let maxExpectedSize { call.set(WOPIHeader.maxExpectedSize, String(maxExpectedSize)) }
        let response = try await send(call)
        let length = response.body.knownLength
        let body = ByteStream(response.body, knownLength: length).reportingProgress(progress)
        return WOPIDownload(version: response.headers[.init(WOPIHeader.itemVersion)!], length: length, body: body)
    }

    /// PutFile (`POST …/files/{id}/contents`): replaces the content, streamed; returns the new version.
    ///
    /// - Parameters:
    ///   - lock: the lock ID held on the file; `nil` only for a zero-byte file (creating new content).
    ///   - editors: the user IDs of everyone who contributed (`X-WOPI-Editors`).
    ///   - progress: called as bytes leave.
    /// - Throws: ``WOPIClientError/Code/lockConflict`` when the lock does not match.
    @discardableResult
    public func putFile(
        _ file: WOPIResource, content: ByteStream, lock: String?, editors: [String] = [],
        progress: TransferProgress? = nil
    ) async throws -> String? {
        try requireKind(.file, file, "PutFile")
        var call = Call("PutFile", .post, file, suffix: "contents")
        call.isTransfer = true
        call.set(WOPIHeader.override, WOPIOverride.put)
        if let lock { call.set(WOPIHeader.lock, lock) }
        if !editors.isEmpty { call.set(WOPIHeader.editors, editors.joined(separator: ",")) }
        call.headers[.contentType] = "application/octet-stream"
        call.body = content.reportingProgress(progress)
        let response = try await send(call)
        await Self.discard(response.body)
        return response.headers[.init(WOPIHeader.itemVersion)!]
    }

    /// PutRelativeFile: a new file beside `file` with the given content; returns the new file.
    public func putRelativeFile(
        _ file: WOPIResource, target: WOPINameTarget, content: ByteStream, progress: TransferProgress? = nil
    ) async throws -> WOPIFilePointer {
        try requireKind(.file, file, "PutRelativeFile")
        var call = Call("PutRelativeFile", .post, file)
        call.isTransfer = true
        call.set(WOPIHeader.override, WOPIOverride.putRelative)
        target.apply(to: &call.headers)
        if let length = content.knownLength { call.set(WOPIHeader.size, String(length)) }
        call.headers[.contentType] = "application/octet-stream"
        call.body = content.reportingProgress(progress)
        let response = try await json(NewFileResponse.self, call)
        return try WOPIFilePointer(name: response.name, url: response.url)
    }

    /// RenameFile: a new name **without extension** (the extension never changes; sent UTF-7 encoded).
    ///
    /// - Parameter lock: the lock ID, needed only when the file is locked.
    /// - Returns: the new name without extension, as the host chose it (it may adjust a taken name).
    public func renameFile(_ file: WOPIResource, toBaseName name: String, lock: String? = nil) async throws -> String {
        try requireKind(.file, file, "RenameFile")
        var call = Call("RenameFile", .post, file)
        call.set(WOPIHeader.override, WOPIOverride.renameFile)
        call.set(WOPIHeader.requestedName, UTF7.encode(name))
        if let lock { call.set(WOPIHeader.lock, lock) }
        return try await json(RenameResponse.self, call).name
    }

    /// DeleteFile (``WOPIClientError/Code/lockConflict`` when locked).
    public func deleteFile(_ file: WOPIResource) async throws {
        try requireKind(.file, file, "DeleteFile")
        var call = Call("DeleteFile", .post, file)
        call.set(WOPIHeader.override, WOPIOverride.delete)
        await Self.discard(try await send(call).body)
    }
}
