import Foundation
import HTTPTypes
import Logging
import WOPIAccounts
import WOPIHTTPEdge
import WOPIModels
import WOPIOAuthCore

extension OAuthAuthorizationServer {
    /// The token response (RFC 6749 §5.1). `expires_in` is a JSON number of seconds, as the RFC says (the CSPP
    /// sample's string form, Docs/wopi-protocol.md §18.4, is not used).
    struct TokenResponse: Encodable {
        let accessToken: String
        let tokenType = "Bearer"
        let expiresIn: Int
        let refreshToken: String?
        let scope: String

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
            case refreshToken = "refresh_token", scope
        }
    }

    /// `POST /oauth2/token`: the `authorization_code` and `refresh_token` grants.
    func issueToken(_ request: WOPIRequest) async throws -> WOPIResponse {
        if request.header(WOPIHeader.sessionContext) != nil {
            logger.debug("Token request with a session context")
        }
        let form = try await Self.requireForm(request)
        let client = try await authenticateClient(request, form: form)
        switch form["grant_type"] {
        case "authorization_code": return try await redeemCode(form, client: client)
        case "refresh_token": return try await refresh(form, client: client)
        case nil: throw OAuthProtocolError.invalidRequest("grant_type is missing.")
        default:
            throw OAuthProtocolError(
                .unsupportedGrantType, "Only the authorization_code and refresh_token grants are supported.")
        }
    }

    private func redeemCode(_ form: OAuthParameters, client: OAuthClient) async throws -> WOPIResponse {
        guard let code = form["code"] else { throw OAuthProtocolError.invalidRequest("code is missing.") }
        switch try await store.redeemCode(OAuthTokenHash.hash(code)) {
        case nil:
            throw OAuthProtocolError.invalidGrant("The authorization code is unknown or expired. Sign in again.")
        case .replay(let record):
            metrics.reused("authorization_code")
            logger.warning(
                "Authorization code used twice: revoking every token issued from it",
                metadata: ["client": "\(record.clientID)", "user": "\(record.userID)"])
            try await store.revokeFamily(record.familyID)
            throw OAuthProtocolError.invalidGrant("The authorization code was already used; its tokens are revoked.")
        case .first(let record):
            guard record.clientID == client.id else {
                throw OAuthProtocolError.invalidGrant("The authorization code was issued to another client.")
            }
            guard record.expiresAt > now() else {
                throw OAuthProtocolError.invalidGrant("The authorization code expired. Sign in again.")
            }
            if let expected = record.redirectURI, form["redirect_uri"] != expected {
                throw OAuthProtocolError.invalidGrant("redirect_uri differs from the authorization request's.")
            }
            if let challenge = record.codeChallenge {
                guard let verifier = form["code_verifier"], PKCES256.verify(verifier, against: challenge) else {
                    throw OAuthProtocolError.invalidGrant("code_verifier is missing or does not match code_challenge.")
                }
            } else if form["code_verifier"] != nil {
                throw OAuthProtocolError.invalidGrant("code_verifier was sent but the request had no code_challenge.")
            }
            try await requireCurrentUser(record.userID, stamp: record.credentialStamp, family: record.familyID)
            return try await issueTokens(
                client: client, userID: record.userID, scope: record.scope, familyID: record.familyID,
                credentialStamp: record.credentialStamp)
        }
    }

    private func refresh(_ form: OAuthParameters, client: OAuthClient) async throws -> WOPIResponse {
        guard let token = form["refresh_token"] else {
            throw OAuthProtocolError.invalidRequest("refresh_token is missing.")
        }
        let hash = OAuthTokenHash.hash(token)
        guard let stored = try await store.token(hash), stored.kind == .refresh, stored.clientID == client.id else {
            throw OAuthProtocolError.invalidGrant("The refresh token is unknown, revoked or expired. Sign in again.")
        }
        var scope = stored.scope
        if let requested = form["scope"] {
            let granted = Set(stored.scope.split(separator: " "))
            guard requested.split(separator: " ").allSatisfy(granted.contains) else {
                throw OAuthProtocolError(.invalidScope, "A refresh cannot widen the scope that was granted.")
            }
            scope = requested
        }
        switch try await store.redeemRefreshToken(hash) {
        case nil:
            throw OAuthProtocolError.invalidGrant("The refresh token is unknown, revoked or expired. Sign in again.")
        case .replay(let record):
            metrics.reused("refresh_token")
            logger.warning(
                "Refresh token used twice: revoking every token of this sign-in",
                metadata: ["client": "\(record.clientID)", "user": "\(record.userID)"])
            try await store.revokeFamily(record.familyID)
            throw OAuthProtocolError.invalidGrant(
                "The refresh token was already used; every token of this sign-in is revoked. Sign in again.")
        case .first(let record):
            guard record.expiresAt > now() else {
                throw OAuthProtocolError.invalidGrant("The refresh token expired. Sign in again.")
            }
            try await requireCurrentUser(record.userID, stamp: record.credentialStamp, family: record.familyID)
            return try await issueTokens(
                client: client, userID: record.userID, scope: scope, familyID: record.familyID,
                credentialStamp: record.credentialStamp)
        }
    }

    /// Throws `invalid_grant` unless the user still exists and the grant was issued under the user's current
    /// password (its credential stamp); a grant from before a password change revokes its family.
    private func requireCurrentUser(_ userID: String, stamp: String?, family: String) async throws {
        guard let user = try await users.user(userID) else {
            throw OAuthProtocolError.invalidGrant("The user no longer exists.")
        }
        guard user.isCurrent(credentialStamp: stamp) else {
            try await store.revokeFamily(family)
            logger.notice("Grant refused: the user's password changed since", metadata: ["user": "\(userID)"])
            throw OAuthProtocolError.invalidGrant("The password changed since this sign-in. Sign in again.")
        }
    }

    /// Mints and saves the tokens of a redemption. When the family is revoked meanwhile (a replay of the same code
    /// or refresh token raced this redemption), the store refuses them and the client gets `invalid_grant`.
    private func issueTokens(
        client: OAuthClient, userID: String, scope: String, familyID: String, credentialStamp: String?
    ) async throws -> WOPIResponse {
        do {
            return try await mintTokens(
                client: client, userID: userID, scope: scope, familyID: familyID, credentialStamp: credentialStamp)
        } catch is OAuthFamilyRevokedError {
            logger.warning(
                "Tokens refused: their sign-in was revoked by a replay during the redemption",
                metadata: ["client": "\(client.id)", "user": "\(userID)"])
            throw OAuthProtocolError.invalidGrant(
                "The grant was used twice at the same time; every token of this sign-in is revoked. Sign in again.")
        }
    }

    private func mintTokens(
        client: OAuthClient, userID: String, scope: String, familyID: String, credentialStamp: String?
    ) async throws -> WOPIResponse {
        let issuedAt = now()
        let accessToken = OAuthTokenHash.randomToken()
        try await store.saveToken(
            OAuthTokenRecord(
                hash: OAuthTokenHash.hash(accessToken), kind: .access, clientID: client.id, userID: userID,
                scope: scope, familyID: familyID,
                expiresAt: issuedAt.addingTimeInterval(configuration.accessTokenLifetime),
                credentialStamp: credentialStamp))
        var refreshToken: String? = nil
        if configuration.issuesRefreshTokens {
            let token = OAuthTokenHash.randomToken()
            try await store.saveToken(
                OAuthTokenRecord(
                    hash: OAuthTokenHash.hash(token), kind: .refresh, clientID: client.id, userID: userID,
                    scope: scope, familyID: familyID,
                    expiresAt: issuedAt.addingTimeInterval(configuration.refreshTokenLifetime),
                    credentialStamp: credentialStamp))
            refreshToken = token
        }
        logger.info("Tokens issued", metadata: ["user": "\(userID)", "client": "\(client.id)"])
        await audit(
            AuditEvent(
                .tokenMinted, at: issuedAt, userID: userID,
                details: ["client": client.id, "scope": scope, "refreshToken": "\(refreshToken != nil)"]))
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        headers[.pragma] = "no-cache"
        return try .json(
            TokenResponse(
                accessToken: accessToken, expiresIn: Int(configuration.accessTokenLifetime),
                refreshToken: refreshToken, scope: scope),
            headers: headers)
    }

    // MARK: - Client authentication

    /// The form body of a token or revocation request; `invalid_request` unless form-encoded without repeats.
    static func requireForm(_ request: WOPIRequest) async throws -> OAuthParameters {
        guard let form = try await OAuthParameters.form(of: request) else {
            throw OAuthProtocolError.invalidRequest(
                "Send the parameters as application/x-www-form-urlencoded in the body (at most 64 KiB).")
        }
        guard form.repeatedNames.isEmpty else {
            throw OAuthProtocolError.invalidRequest("A parameter is repeated: \(form.repeatedNames[0]).")
        }
        return form
    }

    /// The client of a token or revocation request: `client_secret_basic` or `client_secret_post` for a
    /// confidential client (secrets checked in constant time), `client_id` alone for a public one.
    func authenticateClient(_ request: WOPIRequest, form: OAuthParameters) async throws -> OAuthClient {
        var clientID = form["client_id"]
        var secret = form["client_secret"]
        var usedBasic = false
        if let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("basic ") {
            usedBasic = true
            guard secret == nil else {
                throw OAuthProtocolError.invalidRequest("Authenticate the client with one method, not two.")
            }
            guard let credentials = Self.basicCredentials(authorization) else {
                throw OAuthProtocolError.invalidClient("The Basic credentials are malformed.", basicChallenge: true)
            }
            guard clientID == nil || clientID == credentials.id else {
                throw OAuthProtocolError.invalidRequest("client_id differs from the Basic credentials.")
            }
            clientID = credentials.id
            secret = credentials.secret.isEmpty ? nil : credentials.secret
        }
        guard let clientID else {
            throw OAuthProtocolError.invalidClient("The request does not identify the client.", basicChallenge: true)
        }
        let client = try await store.client(clientID)
        // Public clients have no secret to guess, and many users share one: only confidential and unknown clients
        // (alike, so an unknown one is not revealed) are throttled.
        let keys = throttleKeys("client:" + clientID, request: request)
        var attempt = SignInAttemptGate.Reservation.none
        defer { attempt.release() }
        switch client?.kind {
        case .confidential(let hash)?:
            attempt = try await reserveAttempt(keys)
            guard let secret, try await verifySecret(secret, against: hash), let client else { break }
            try await recordSuccess(keys)
            return client
        case .public?:
            guard secret == nil, let client else { break }
            return client
        case nil:
            attempt = try await reserveAttempt(keys)
            _ = try await verifySecret(secret ?? "", against: nil)
        }
        if client?.kind != .public {
            try await recordFailure(keys, what: "Client authentication")
        } else {
            logger.info(
                "Client authentication failed: a public client sent a secret", metadata: ["client": "\(clientID)"])
        }
        throw OAuthProtocolError.invalidClient(
            "Client authentication failed: unknown client, wrong secret, or a secret sent by a public client.",
            basicChallenge: usedBasic)
    }

    /// The client ID and secret of `Authorization: Basic`, each form-decoded (RFC 6749 §2.3.1).
    private static func basicCredentials(_ header: String) -> (id: String, secret: String)? {
        let encoded = header.dropFirst("basic ".count).trimmingCharacters(in: .whitespaces)
        guard let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"), let id = PercentEncoding.decode(text[..<colon], plusIsSpace: true),
            let secret = PercentEncoding.decode(text[text.index(after: colon)...], plusIsSpace: true), !id.isEmpty
        else { return nil }
        return (id, secret)
    }
}
