import Foundation
import HTTPTypes
import Logging
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// How long an upload session lives after it was created or last updated (Microsoft's pages: 30 minutes).
    static var uploadSessionLifetime: TimeInterval { 30 * 60 }

    /// CreateUploadSession: a new empty session for this file and user, answered with its token. Expired sessions
    /// (of any file, by any host on the store) are removed first.
    func createUploadSession(_ id: ItemID, sessions: any UploadSessionStore, context: RequestContext) async throws
        -> WOPIResponse
    {
        _ = try await context.file(id, in: storage)
        let now = now()
        do {
            let removed = try await sessions.removeExpired(now: now)
            if removed > 0 { logger.info("Expired upload sessions removed", metadata: ["count": "\(removed)"]) }
        } catch {
            logger.warning("Expired upload sessions could not be removed", metadata: ["error": "\(error)"])
        }
        let session = UploadSession(
            token: Base64URL.randomString(byteCount: 32), file: id, userID: context.user.id,
            expiresAt: now.addingTimeInterval(Self.uploadSessionLifetime))
        try await sessions.create(session)
        logger.info("CreateUploadSession", metadata: ["file": "\(id)"])
        return try .json(CreateUploadSessionResponse(uploadSessionToken: session.token))
    }

    /// UpdateUploadSession: the body appended to the session when it starts at the session's end and is as long as
    /// announced (else `400`, nothing added); every answer names the session's length in
    /// `X-WOPI-UploadSessionCurrentOffset`, so a client that lost an answer continues from there.
    func updateUploadSession(
        _ id: ItemID, sessions: any UploadSessionStore, request: WOPIRequest, context: RequestContext
    ) async throws -> WOPIResponse {
        guard let token = request.header(WOPIHeader.uploadSessionToken), !token.isEmpty else {
            throw WOPIHTTPError.badRequest(
                "UpdateUploadSession needs X-WOPI-UploadSessionToken (CreateUploadSession's).")
        }
        let offset = try Self.byteCount(WOPIHeader.contentRangeOffset, of: request)
        let length = try Self.byteCount(WOPIHeader.contentRangeLength, of: request)
        _ = try await context.file(id, in: storage)
        let now = now()
        let session = try await uploadSession(token, of: id, in: sessions, context: context, now: now)
        guard offset == session.length else {
            throw Self.uploadRefused(
                "The update starts at byte \(offset), but the session holds \(session.length) bytes; send from there.",
                session: session.length)
        }
        // The client's length is any 64-bit number: the sum is checked, never computed where it could trap.
        let limit = configuration.maximumFileSize ?? Int64.max
        guard let total = RequestNumber.sum(session.length, length), total <= limit else {
            throw WOPIHTTPError(.contentTooLarge, "The upload session would pass the \(limit) bytes this host accepts.")
        }
        let expiry = now.addingTimeInterval(Self.uploadSessionLifetime)
        switch try await sessions.append(request.body, length: length, to: session, expiresAt: expiry, now: now) {
        case .appended(let newLength):
            logger.debug("UpdateUploadSession", metadata: ["file": "\(id)", "length": "\(newLength)"])
            var response = WOPIResponse(status: .ok)
            response.headers[.wopiUploadSessionCurrentOffset] = String(newLength)
            return response
        case .lengthMismatch(let received):
            throw Self.uploadRefused(
                "The body has \(received > length ? "more than \(length)" : "\(received)") bytes, not the "
                    + "\(length) of X-WOPI-ContentRangeLength; nothing was added.", session: session.length)
        case .sessionChanged:
            let current = try await uploadSession(token, of: id, in: sessions, context: context, now: now)
            throw Self.uploadRefused(
                "Another update of the session came first; it holds \(current.length) bytes now.",
                session: current.length)
        }
    }

    /// The session `token` of file `id`, created by this request's user and not expired; `410` otherwise.
    func uploadSession(
        _ token: String, of id: ItemID, in sessions: any UploadSessionStore, context: RequestContext, now: Date
    ) async throws -> UploadSession {
        guard let session = try await sessions.session(token), session.file == id, session.userID == context.user.id,
            !session.isExpired(at: now)
        else {
            throw WOPIHTTPError(
                .gone,
                "No upload session of this file and user has this token (unknown, expired or committed); "
                    + "create one with CREATE_UPLOAD_SESSION and upload its chunks again.")
        }
        return session
    }

    /// A `400` refusing an update, with the session's length in `X-WOPI-UploadSessionCurrentOffset`.
    private static func uploadRefused(_ message: String, session length: Int64) -> WOPIHTTPError {
        var error = WOPIHTTPError.badRequest(message)
        error.headers[.wopiUploadSessionCurrentOffset] = String(length)
        return error
    }

    /// A required header holding a byte count or offset (``RequestNumber``); `400` otherwise.
    private static func byteCount(_ header: String, of request: WOPIRequest) throws -> Int64 {
        guard let value = try request.nonNegativeNumber(header) else {
            throw WOPIHTTPError.badRequest("UpdateUploadSession needs \(header).")
        }
        return value
    }
}
