import Foundation
import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    // MARK: - GetFile and FileUrl

    /// GetFile (Docs/wopi-protocol.md §4.7), with `Range`.
    func getFile(_ id: ItemID, request: WOPIRequest, context: RequestContext) async throws -> WOPIResponse {
        try await content(of: try await context.file(id, in: storage), request: request)
    }

    /// A request to a ``FileURLs`` URL: not proof-signed and without an access token, so its ticket says who reads,
    /// and the policy is asked again, as for GetFile.
    func getFromFileURL(_ id: ItemID, request: WOPIRequest) async throws -> WOPIResponse {
        guard let fileURLs = configuration.fileURLs else {
            throw WOPIHTTPError.notFound("This host hands out no FileUrl.")
        }
        let userID = try fileURLs.user(of: request, file: id, now: now())
        guard let user = try await users.user(userID) else {
            throw WOPIHTTPError.unauthorized("The FileUrl's user no longer exists.")
        }
        let item = try await storage.item(id)
        guard try await access(of: user, to: item).allows(.see), case .file(let file) = item else {
            throw WOPIHTTPError.notFound("No item has this ID.")
        }
        return try await content(of: file, request: request)
    }

    /// The `FileUrl` CheckFileInfo hands out for `file`, when the host is configured with ``FileURLs``.
    func fileURL(for file: ItemID, context: RequestContext) -> String? {
        configuration.fileURLs?.url(
            for: file, user: context.user.id, urls: context.urls, notAfter: context.token.expiresAt, now: now())
    }

    /// The content of `file` as GetFile and FileUrl answer it: `X-WOPI-MaxExpectedSize` checked against the whole
    /// file, then the whole content (`200`) or the one range `Range` asks for (`206`, `416`; ``ByteRangeRequest``),
    /// streamed from the backend (or from `read`, which reads the whole content for `nil`: a ``VersionView``'s).
    /// `If-Range` is honoured with the `ETag` sent here (the version): a range of another version is never served.
    func content(
        of file: FileMetadata, request: WOPIRequest,
        read: (@Sendable (Range<Int64>?) async throws -> FileContent)? = nil
    ) async throws -> WOPIResponse {
        let storage = storage
        let id = file.id
        let read: @Sendable (Range<Int64>?) async throws -> FileContent =
            read ?? { range in
                if let range { try await storage.readFile(id, range: range) } else { try await storage.readFile(id) }
            }
        let maximum = try request.nonNegativeNumber(WOPIHeader.maxExpectedSize) ?? Int64(Int32.max)
        guard file.size <= maximum else {
            throw WOPIHTTPError(
                .preconditionFailed, "The file is \(file.size) bytes, more than X-WOPI-MaxExpectedSize.")
        }
        let etag = "\"\(file.version)\""
        let rangeHeader = request.headers[.ifRange].map { $0 == etag } ?? true ? request.headers[.range] : nil
        var headers = HTTPFields()
        headers[.acceptRanges] = "bytes"
        switch ByteRangeRequest(header: rangeHeader, length: file.size) {
        case .unsatisfiable:
            headers[.contentRange] = ByteRangeRequest.unsatisfiedRange(length: file.size)
            throw WOPIHTTPError(.rangeNotSatisfiable, "The range starts past the file's end.", headers: headers)
        case .whole:
            let content = try await TracedWork.storage.traced("storage.readFile", item: file.id) { try await read(nil) }
            headers[.eTag] = "\"\(content.metadata.version)\""
            return contentResponse(.ok, content, length: content.metadata.size, headers: headers)
        case .part(let range):
            let content = try await TracedWork.storage.traced("storage.readFile", item: file.id) {
                try await read(range)
            }
            // The backend clamps to the size of the version it opened, which a save in between may have changed.
            let served = range.clamped(to: 0..<content.metadata.size)
            guard !served.isEmpty else {
                headers[.contentRange] = ByteRangeRequest.unsatisfiedRange(length: content.metadata.size)
                throw WOPIHTTPError(.rangeNotSatisfiable, "The range starts past the file's end.", headers: headers)
            }
            headers[.eTag] = "\"\(content.metadata.version)\""
            headers[.contentRange] = ByteRangeRequest.contentRange(served, length: content.metadata.size)
            return contentResponse(.partialContent, content, length: Int64(served.count), headers: headers)
        }
    }

    private func contentResponse(
        _ status: HTTPResponse.Status, _ content: FileContent, length: Int64, headers: HTTPFields
    ) -> WOPIResponse {
        var response = WOPIResponse(
            status: status, headers: headers, body: .stream(counted(ByteStream(content.body, knownLength: length))))
        response.headers[.contentType] = "application/octet-stream"
        response.setHeader(WOPIHeader.itemVersion, content.metadata.version)
        return response
    }
}
