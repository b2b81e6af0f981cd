import Foundation
import HTTPTypes
import Logging
public import WOPIAccounts
public import WOPIHTTPEdge
import WOPIModels
import WOPIOAuthCore

extension OAuthAuthorizationServer {
    /// `GET /oauth2/authorize`: validates the request and shows the sign-in page.
    func showSignIn(_ request: WOPIRequest) async throws -> WOPIResponse {
        guard request.query.isWellFormed else {
            return AuthorizationPage.response(
                AuthorizationPage.error(
                    "The sign-in link is malformed. Start the sign-in again from the app.", configuration: configuration
                ),
                status: .badRequest)
        }
        switch try await AuthorizationRequest.validate(
            OAuthParameters(request.query), store: store, configuration: configuration)
        {
        case .failure(let failure):
            return respond(to: failure, issuer: issuer(for: request))
        case .success(let authorization):
            return signInPage(authorization, request: request, message: nil, username: nil, status: .ok)
        }
    }

    /// `POST /oauth2/authorize`: checks the form's anti-forgery token and the password, then redirects with a code.
    func signIn(_ request: WOPIRequest) async throws -> WOPIResponse {
        let issuer = issuer(for: request)
        guard let form = try await OAuthParameters.form(of: request) else {
            return AuthorizationPage.response(
                AuthorizationPage.error("The sign-in form was not sent correctly.", configuration: configuration),
                status: .badRequest)
        }
        let authorization: AuthorizationRequest
        switch try await AuthorizationRequest.validate(form, store: store, configuration: configuration) {
        case .failure(let failure): return respond(to: failure, issuer: issuer)
        case .success(let valid): authorization = valid
        }
        guard let token = form["form_token"],
            formTokens.verify(
                token, parameters: authorization.carried, browserID: AuthorizationFormToken.browserID(in: request),
                now: now())
        else {
            logger.warning(
                "Sign-in form refused: its anti-forgery token is missing, expired or altered",
                metadata: ["client": "\(authorization.client.id)"])
            return signInPage(
                authorization, request: request,
                message: "This sign-in page expired or was not opened from this site. Sign in again.", username: nil,
                status: .badRequest)
        }
        let username = form["username"] ?? ""
        let account = try await account(named: username)
        let keys = throttleKeys("account:" + account.key, request: request)
        let user: WOPIUser
        do {
            let attempt = try await reserveAttempt(keys)
            defer { attempt.release() }
            guard try await verifySecret(form["password"] ?? "", against: account.user?.passwordHash),
                let known = account.user
            else {
                try await recordFailure(keys, what: "Sign-in (client \(authorization.client.id))")
                return signInPage(
                    authorization, request: request, message: "The user name or password is incorrect.",
                    username: username, status: .ok)
            }
            try await recordSuccess(keys)
            user = known
        } catch let refusal as SignInRefusal {
            return signInPage(
                authorization, request: request, message: refusal.message, username: username,
                status: refusal.status, retryAfter: refusal.retryAfter)
        }
        let code = OAuthTokenHash.randomToken()
        try await store.saveCode(
            OAuthCodeRecord(
                hash: OAuthTokenHash.hash(code), clientID: authorization.client.id, userID: user.id,
                scope: authorization.scope, redirectURI: authorization.redirectURIParameter,
                codeChallenge: authorization.codeChallenge, familyID: OAuthTokenHash.randomToken(),
                expiresAt: now().addingTimeInterval(min(configuration.codeLifetime, 10 * 60)),
                credentialStamp: user.credentialStamp))
        logger.info("User signed in", metadata: ["user": "\(user.id)", "client": "\(authorization.client.id)"])
        var pairs = [(name: "code", value: code)]
        if let state = authorization.state { pairs.append(("state", state)) }
        pairs.append(("iss", issuer))
        if let tk = configuration.tokenEndpointOverride { pairs.append(("tk", tk)) }
        if let sc = configuration.sessionContext?(user, authorization.client) { pairs.append(("sc", sc)) }
        return Self.redirect(to: authorization.redirectURI, pairs)
    }

    /// Signs a user in with a password outside the OAuth flow (a host's own pages), through the same throttle and
    /// the same bound on concurrent hashes: the user, or `nil` for a wrong name or password (after the same work
    /// either way).
    ///
    /// - Throws: ``SignInRefusal`` while the account or the address is locked out, or the hashes are saturated.
    public func authenticate(_ username: String, password: String, request: WOPIRequest) async throws -> WOPIUser? {
        let account = try await account(named: username)
        let keys = throttleKeys("account:" + account.key, request: request)
        let attempt = try await reserveAttempt(keys)
        defer { attempt.release() }
        guard try await verifySecret(password, against: account.user?.passwordHash), let user = account.user else {
            try await recordFailure(keys, what: "Sign-in (host page)")
            return nil
        }
        try await recordSuccess(keys)
        return user
    }

    /// The user with this ID or sign-in name, if any, and the key its failures are counted under: the user's ID,
    /// or the name as typed (trimmed, as a sign-in key) for an unknown one, which is throttled exactly the same way.
    private func account(named username: String) async throws -> (user: WOPIUser?, key: String) {
        let name = username.trimmingCharacters(in: .whitespaces)
        var user: WOPIUser? = nil
        if WOPIUser.isValidID(name) { user = try await users.user(name) }
        if user == nil, !name.isEmpty {
            user = try await users.user(signInName: name)
        }
        return (user, user.map { "id:" + $0.id } ?? "name:" + WOPIUser.signInKey(name))
    }

    /// The page for `authorization`, with a fresh form token and the browser-ID cookie.
    private func signInPage(
        _ authorization: AuthorizationRequest, request: WOPIRequest, message: String?, username: String?,
        status: HTTPResponse.Status, retryAfter: Int? = nil
    ) -> WOPIResponse {
        let browserID = AuthorizationFormToken.browserID(in: request) ?? AuthorizationFormToken.newBrowserID()
        let token = formTokens.mint(
            parameters: authorization.carried, browserID: browserID,
            expiresAt: now().addingTimeInterval(configuration.formLifetime))
        // The form posts to the endpoint's last path segment, relative to the page: it works behind a proxy that
        // adds a path prefix, and the query is not sent again.
        let action = String(configuration.authorizationPath.split(separator: "/").last ?? "authorize")
        let html = AuthorizationPage.signIn(
            authorization, formToken: token, formAction: action, message: message, username: username,
            configuration: configuration)
        let cookie = SetCookie(
            name: AuthorizationFormToken.cookieName, value: browserID, maxAge: Int(configuration.formLifetime),
            secure: issuer(for: request).hasPrefix("https:"), sameSite: .strict
        ).headerValue
        let target = AuthorizationPage.cspSource(forRedirectURI: authorization.redirectURI)
        return AuthorizationPage.response(
            html, status: status, formAction: target.map { [$0] }, cookie: cookie, retryAfter: retryAfter)
    }

    /// An error page, or an error redirect once the redirect URI is known to be the client's.
    private func respond(to failure: AuthorizationRequest.Failure, issuer: String) -> WOPIResponse {
        switch failure {
        case .page(let message):
            logger.info("Authorization request refused with an error page", metadata: ["reason": "\(message)"])
            return AuthorizationPage.response(
                AuthorizationPage.error(message, configuration: configuration), status: .badRequest)
        case .redirect(let error, let uri, let state):
            logger.info("Authorization request refused", metadata: ["error": "\(error)"])
            var pairs = [
                (name: "error", value: error.code.rawValue), (name: "error_description", value: error.message),
            ]
            if let state { pairs.append(("state", state)) }
            pairs.append(("iss", issuer))
            return Self.redirect(to: uri, pairs)
        }
    }

    private static func redirect(to uri: String, _ pairs: [(name: String, value: String)]) -> WOPIResponse {
        var headers = HTTPFields()
        headers[.location] = PercentEncoding.appendQuery(pairs, to: uri)
        headers[.cacheControl] = "no-store"
        headers[.referrerPolicy] = "no-referrer"
        return WOPIResponse(status: .found, headers: headers)
    }
}
