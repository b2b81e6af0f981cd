public import Foundation
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

/// What an authorized request carries into an operation: who calls, with which token, and how to build URLs.
struct RequestContext: Sendable {
    /// The verified token claims.
    var token: AccessToken
    /// The calling user.
    var user: WOPIUser
    /// What the user may do with the token's item now: the policy's answer limited to the token's permission
    /// (``ItemAccess/edit`` for the ecosystem, which is the user's own).
    var access: ItemAccess
    /// The token's file or container as authorization read it (`nil` for the ecosystem and "Shared with me").
    var item: StorageItem?

    /// The file `id` as this request read it: ``item`` when it is that file (read in this request, so as fresh as
    /// a second read, and one storage read fewer), otherwise a read of `storage`, which throws
    /// ``WOPIStorage/StorageError/Code/notAFile`` for a container.
    func file(_ id: ItemID, in storage: any StorageBackend) async throws -> FileMetadata {
        if case .file(let file) = item, file.id == id { return file }
        return try await TracedWork.storage.traced("storage.file", item: id) { try await storage.file(id) }
    }
    /// The token's container as authorization read it; throws ``WOPIStorage/StorageError/Code/notAContainer`` when
    /// the token's ID names a file.
    func container() throws -> ContainerMetadata {
        guard case .container(let container) = item else {
            throw StorageError(.notAContainer, "The item is not a container.")
        }
        return container
    }

    /// The host's WOPI URLs as this request reached them.
    var urls: WOPIURLs

    /// The WOPISrc of a file (no token).
    func fileSrc(_ id: ItemID) -> String { urls.file(id) }
    /// The WOPI URL of a container (no token).
    func containerSrc(_ id: ItemID) -> String { urls.container(id) }
    /// The ecosystem URL (no token).
    var ecosystemSrc: String { urls.ecosystem }

    /// `url` with a token for `resource` appended. Tokens traded from this request's token keep its expiry
    /// (Docs/wopi-protocol.md §2.3), so a leaked token cannot be renewed by walking the tree.
    func withToken(_ url: String, for resource: AccessToken.Resource, signer: AccessTokenSigner) -> String {
        var trade = TokenTrade(self, signer: signer)
        return trade.url(url, for: resource)
    }

    /// Appends `access_token` and `access_token_ttl` (epoch milliseconds) to a URL.
    static func append(token: String, expiresAt: Date, to url: String) -> String {
        var line = Array(url.utf8)
        appendToken(to: &line, hasQuery: hasQuery(url), expiresAt: expiresAt) { $0.append(contentsOf: token.utf8) }
        return String(decoding: line, as: UTF8.self)
    }

    /// Whether `url` has a query already (the token's parameters then follow a `&`).
    static func hasQuery(_ url: String) -> Bool { url.utf8.contains(UInt8(ascii: "?")) }

    /// Appends the token parameters to the URL in `line` (with a query if `hasQuery`): `access_token`, whose value
    /// `token` appends, and `access_token_ttl`, the expiry in epoch milliseconds.
    static func appendToken(
        to line: inout [UInt8], hasQuery: Bool, expiresAt: Date, _ token: (inout [UInt8]) -> Void
    ) {
        line.append(contentsOf: (hasQuery ? "&access_token=" : "?access_token=").utf8)
        token(&line)
        line.append(contentsOf: "&access_token_ttl=".utf8)
        // Small integers' strings live in the string value itself: no allocation.
        line.append(contentsOf: String(EpochMilliseconds.from(expiresAt)).utf8)
    }
}

/// URLs with tokens traded from a request's token (its user, expiry and permission; the URL's resource), made in
/// buffers this value reuses: a listing makes one per child, at one string each. What ``url(_:for:)`` returns is
/// ``RequestContext/append(token:expiresAt:to:)`` of `url` and a token ``AccessTokenSigner/mint(_:)`` made.
struct TokenTrade {
    private let token: AccessToken
    private let signer: AccessTokenSigner
    private let urls: WOPIURLs
    /// Whether the WOPI root has a query (it has not, unless a public URL gives it one).
    private let rootHasQuery: Bool
    private var payload: [UInt8] = []
    private var line: [UInt8] = []

    init(_ context: RequestContext, signer: AccessTokenSigner) {
        token = context.token
        self.signer = signer
        urls = context.urls
        rootHasQuery = RequestContext.hasQuery(urls.root)
    }

    /// The URL of `resource` (a WOPISrc, a container's URL) with its token.
    mutating func url(for resource: AccessToken.Resource) -> String {
        let urls = urls
        return make(resource, hasQuery: rootHasQuery) { urls.append(resource, to: &$0) }
    }

    /// `url` with a token for `resource`.
    mutating func url(_ url: String, for resource: AccessToken.Resource) -> String {
        make(resource, hasQuery: RequestContext.hasQuery(url)) { $0.append(contentsOf: url.utf8) }
    }

    /// The URL `writeURL` writes, with a token for `resource`.
    private mutating func make(
        _ resource: AccessToken.Resource, hasQuery: Bool, _ writeURL: (inout [UInt8]) -> Void
    ) -> String {
        // The buffers are moved out while they are written, and back for the next URL.
        var line = self.line
        var payload = self.payload
        self.line = []
        self.payload = []
        defer {
            self.line = line
            self.payload = payload
        }
        line.removeAll(keepingCapacity: true)
        writeURL(&line)
        let traded = AccessToken(
            userID: token.userID, resource: resource, expiresAt: token.expiresAt, permission: token.permission,
            credentialStamp: token.credentialStamp)
        RequestContext.appendToken(to: &line, hasQuery: hasQuery, expiresAt: token.expiresAt) { line in
            signer.appendToken(for: traded, to: &line, payload: &payload)
        }
        return String(decoding: line, as: UTF8.self)
    }
}

extension WOPIHost {
    /// The WOPI URLs for a request: below the configured public URL, or the request's own origin.
    func urls(for request: WOPIRequest) -> WOPIURLs {
        WOPIURLs(publicURL: publicBase(for: request), configuration: configuration)
    }

    /// The scheme and authority clients reach the host at: the configured public URL, or the request's own origin.
    func publicBase(for request: WOPIRequest) -> String {
        request.baseURL(publicURL: configuration.publicURL, defaultScheme: configuration.scheme)
    }

    /// Verifies the request's access token (401 when missing, malformed, tampered or expired).
    func authorizedToken(_ request: WOPIRequest) async throws -> AccessToken {
        guard let raw = request.accessToken else {
            throw WOPIHTTPError.unauthorized("No access token: send access_token in the query string.")
        }
        do {
            return try tokens.verify(raw, now: now())
        } catch .expired {
            throw WOPIHTTPError.unauthorized("The access token expired; get a new one (GetNewAccessToken).")
        } catch {
            throw WOPIHTTPError.unauthorized("The access token is not valid.")
        }
    }

    /// Verifies the token and that it covers `resource` (or `tokenFor`, the resource the request named, when that
    /// stands for `resource`: a ``VersionView``), and asks the policy what the user may do with `resource`: 401 for
    /// a bad token, 404 for another resource or an item the user may not see. `signed`: the request's proof was
    /// verified, so the access is the editor's (``ItemAccess/isVerifiedEditor``).
    func authorize(
        _ request: WOPIRequest, for resource: AccessToken.Resource, tokenFor: AccessToken.Resource? = nil,
        signed: Bool = false
    ) async throws -> RequestContext {
        let token = try await authorizedToken(request)
        guard token.resource == tokenFor ?? resource else {
            throw WOPIHTTPError.notFound("The access token is for another resource.")
        }
        let user: WOPIUser
        var access = ItemAccess.edit
        var item: StorageItem?
        switch resource {
        case .container(SharedWithMe.id):
            user = try await tokenUser(token.userID)
            access = ItemAccess.view.limited(to: token.permission)
        case .file(let id), .container(let id):
            let found: StorageItem
            (user, found, access) = try await authorizedItem(id, userID: token.userID)
            access = access.limited(to: token.permission)
            guard access.permission > .none else { throw WOPIHTTPError.notFound("No item has this ID.") }
            if signed { access.isVerifiedEditor = true }
            item = found
        case .ecosystem:
            user = try await tokenUser(token.userID)
        }
        guard token.isCurrent(for: user) else { throw Self.credentialsChanged }
        return RequestContext(token: token, user: user, access: access, item: item, urls: urls(for: request))
    }

    /// The token's user (401 when it no longer exists).
    private func tokenUser(_ userID: String) async throws -> WOPIUser {
        guard let user = try await TracedWork.database.traced("database.user", { try await users.user(userID) }) else {
            throw Self.userGone
        }
        return user
    }

    private static let userGone = WOPIHTTPError.unauthorized("The access token's user no longer exists.")
    private static let credentialsChanged = WOPIHTTPError.unauthorized(
        "The access token was revoked: the user's password changed since. Open the file again.")

    /// The token's user, the item `id` and what the policy lets the user do with it: read in one round trip by the
    /// configured ``AuthorizationReader``, otherwise from the user directory, the storage and the policy in turn.
    /// Either way a missing user is 401 before a missing item is 404.
    private func authorizedItem(_ id: ItemID, userID: String) async throws -> (WOPIUser, StorageItem, ItemAccess) {
        guard let reader = configuration.authorizationReader else {
            let user = try await tokenUser(userID)
            let item = try await TracedWork.storage.traced("storage.item", item: id) { try await storage.item(id) }
            return (user, item, try await policy.access(of: user, to: item))
        }
        let read = try await TracedWork.database.traced("database.authorization", item: id) {
            try await reader.read(user: userID, item: id)
        }
        guard let user = read.user else { throw Self.userGone }
        guard let item = read.item else { throw StorageError.notFound(id) }
        if let decided = try await policy.access(of: user, to: item, sharesOnPath: read.sharesOnPath) {
            return (user, item, decided)
        }
        return (user, item, try await policy.access(of: user, to: item))
    }

    /// Mints a fresh token for `user` with the host's default lifetime (for OAuth-authenticated callers, the host
    /// pages and the CLI), stamped with the user's ``WOPIUser/credentialStamp``: it stops working when the user's
    /// password changes.
    ///
    /// - Parameter permission: the most the token allows (``Permission/view`` for a view-only link).
    public func mintToken(for user: WOPIUser, resource: AccessToken.Resource, permission: Permission = .edit) -> (
        token: String, expiresAt: Date
    ) {
        let expiresAt = now().addingTimeInterval(configuration.accessTokenLifetime)
        let claims = AccessToken(user: user, resource: resource, expiresAt: expiresAt, permission: permission)
        return (tokens.mint(claims), expiresAt)
    }

    /// Mints a fresh token for the user with this ID, without a credential stamp: unlike
    /// ``mintToken(for:resource:permission:)`` it is not refused after a password change (for tests and for users
    /// without a password, whose identity provider revokes them).
    public func mintToken(userID: String, resource: AccessToken.Resource, permission: Permission = .edit) -> (
        token: String, expiresAt: Date
    ) {
        let expiresAt = now().addingTimeInterval(configuration.accessTokenLifetime)
        let claims = AccessToken(userID: userID, resource: resource, expiresAt: expiresAt, permission: permission)
        return (tokens.mint(claims), expiresAt)
    }

    /// Asks the door whether `change` may happen with the request's access (``authorize(_:by:access:)``).
    func check(_ change: ContentChange, context: RequestContext) async throws {
        try await authorize(change, by: context.user, access: context.access)
    }
}
