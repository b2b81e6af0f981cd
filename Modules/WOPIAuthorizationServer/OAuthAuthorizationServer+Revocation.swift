import Foundation
import HTTPTypes
import Logging
import WOPIHTTPEdge
import WOPIModels
import WOPIOAuthCore

extension OAuthAuthorizationServer {
    /// `POST /oauth2/revoke` (RFC 7009): revokes an access token, or a refresh token with its whole family.
    ///
    /// Answers `200` for unknown tokens and for tokens of other clients (which are left alone), so the endpoint
    /// tells nothing about which tokens exist.
    func revoke(_ request: WOPIRequest) async throws -> WOPIResponse {
        let form = try await Self.requireForm(request)
        let client = try await authenticateClient(request, form: form)
        guard let token = form["token"] else { throw OAuthProtocolError.invalidRequest("token is missing.") }
        let hash = OAuthTokenHash.hash(token)
        if let record = try await store.token(hash), record.clientID == client.id {
            switch record.kind {
            case .access, .session: try await store.revokeToken(hash)
            case .refresh: try await store.revokeFamily(record.familyID)
            }
            logger.info(
                "Token revoked", metadata: ["kind": "\(record.kind.rawValue)", "client": "\(client.id)"])
        }
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        headers[.contentLength] = "0"
        return WOPIResponse(status: .ok, headers: headers)
    }
}
