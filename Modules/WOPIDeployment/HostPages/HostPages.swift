import Crypto
import Foundation
import HTTPTypes
public import Logging
import NIOCore
public import WOPIAuthorizationServer
public import WOPIHTTPEdge
public import WOPIModels
public import WOPIServer
import WOPIServerHummingbird
import WOPIStorage

/// A host's own pages for its users and for Office for the web and the other WOPI clients: sign-in and sign-out,
/// the user's files, `/open/{fileID}?action=view|edit|editnew` framing the WOPI client, `/new` for an empty
/// document opened with `editnew`, `/download/{fileID}`, `/versions/{fileID}` (the versions view, where the storage
/// keeps versions), and `/share/{token}`, which redeems a GetShareUrl link.
/// Without a WOPI client (`discovery` nil) the pages list, download and share files.
///
/// Everything but the HTML is here; a ``HostPageRenderer`` draws the pages. Sign-in goes through the
/// authorization server's `OAuthAuthorizationServer.authenticate(_:password:request:)`, so the host pages and
/// the OAuth sign-in page share one throttle, per account and per address.
public struct HostPages: HTTPEndpoints {
    /// The WOPI host whose files the pages show.
    public let host: WOPIHost
    /// The WOPI client's discovery, `nil` without one.
    public let discovery: DiscoveryClient?
    /// Who checks passwords.
    public let accounts: OAuthAuthorizationServer
    /// The sign-in sessions.
    public let sessions: HostSessions
    /// The pages' base URL (the configured public URL, or the address the server listens on).
    public let base: PublicBaseURL
    /// The UI language and other placeholders of action URLs.
    public let urlOptions: ActionURLOptions
    /// How the pages look.
    public let renderer: any HostPageRenderer
    let logger: Logger

    /// Pages for `host`, drawn by `renderer`.
    public init(
        host: WOPIHost, discovery: DiscoveryClient?, accounts: OAuthAuthorizationServer, sessions: HostSessions,
        base: PublicBaseURL, urlOptions: ActionURLOptions = ActionURLOptions(), renderer: any HostPageRenderer,
        logger: Logger = Logger(label: "wopikit.pages")
    ) {
        self.host = host
        self.discovery = discovery
        self.accounts = accounts
        self.sessions = sessions
        self.base = base
        self.urlOptions = urlOptions
        self.renderer = renderer
        self.logger = logger
    }

    /// The routes of the pages: sign-in and sign-out, and the pages of a signed-in user (files, new document, open,
    /// close, download, versions, share-link redemption). Failures are pages, never thrown: each error says what its page
    /// says (``WOPIHTTPEdge/HTTPResponseError/pageMessage``), at its status.
    public var routes: [HTTPRoute] {
        [
            route(.get, "/signin") { pages, request in
                pages.signInPage(request, next: Self.safeNext(request.query["next"]), message: nil, status: .ok)
            },
            route(.post, "/signin") { try await $0.signIn($1) },
            route(.post, "/signout") { try await $0.signOut($1) },
            signedIn(.get, "/files") { try await $0.files($1, user: $2, pages: $3) },
            signedIn(.post, "/new") { try await $0.newDocument($1, user: $2, pages: $3) },
            signedIn(.get, "/open/:id") { pages, request, user, urls in
                guard let id = Self.itemID(request) else { return pages.notFound }
                if let version = request.query["version"] {
                    return try await pages.open(id, version: version, user: user, pages: urls)
                }
                return try await pages.open(id, action: request.query["action"] ?? "view", user: user, pages: urls)
            },
            signedIn(.get, "/close/:id") { pages, request, user, urls in
                guard let id = Self.itemID(request) else { return pages.notFound }
                return try await pages.close(id, session: request.query["session"], user: user, pages: urls)
            },
            signedIn(.get, "/download/:id") { pages, request, user, _ in
                guard let id = Self.itemID(request) else { return pages.notFound }
                return try await pages.download(id, version: request.query["version"], user: user)
            },
            signedIn(.get, "/share/:token") { pages, request, user, urls in
                try await pages.redeemShareLink(request.parameters["token"] ?? "", user: user, pages: urls)
            },
        ] + versionRoutes
    }

    /// The route of one page: `body`'s answer, or the page of what it threw.
    private func route(
        _ method: HTTPRequest.Method, _ path: String,
        _ body: @escaping @Sendable (HostPages, WOPIRequest) async throws -> WOPIResponse
    ) -> HTTPRoute {
        HTTPRoute(method, path) { [self] request in
            do {
                return try await body(self, request)
            } catch {
                if error is any HTTPResponseError {
                    logger.info("Host page refused", metadata: ["path": "\(request.path)", "error": "\(error)"])
                }
                return WOPIResponse(
                    answering: error, to: request, page: { [self] in page($0, $1) },
                    logger: logger, metadata: ["path": "\(request.path)"])
            }
        }
    }

    /// The route of a page for a signed-in user: without a session, a `GET` goes to the sign-in page and comes back,
    /// anything else is told to sign in first.
    func signedIn(
        _ method: HTTPRequest.Method, _ path: String,
        _ body: @escaping @Sendable (HostPages, WOPIRequest, WOPIUser, HostPageURLs) async throws -> WOPIResponse
    ) -> HTTPRoute {
        route(method, path) { pages, request in
            let secure = pages.isSecure(request)
            guard let user = try await pages.sessions.signedInUser(of: request, in: pages.host.users, secure: secure)
            else {
                guard request.method == .get else {
                    return pages.signInPage(request, next: "/files", message: "Sign in first.", status: .unauthorized)
                }
                return Self.redirect("/signin?next=" + PercentEncoding.encode(request.target))
            }
            return try await body(pages, request, user, HostPageURLs(base: pages.baseURL(for: request)))
        }
    }

    /// The item a page's `:id` names, `nil` when it is not an item ID.
    static func itemID(_ request: WOPIRequest) -> ItemID? {
        request.parameters["id"].flatMap(ItemID.init(rawValue:))
    }

    /// Signs the browser out, ending its session on the server; a page elsewhere must not (logout CSRF): a sent
    /// Origin must be the host's own.
    private func signOut(_ request: WOPIRequest) async throws -> WOPIResponse {
        guard HostSessions.isSentFromOneOf(sameOriginCandidates(of: request), request) else {
            logger.notice("Host page sign-out refused: another origin")
            return html(.forbidden, renderer.message(title: "Cannot sign out", "Sign out from this site's pages."))
        }
        var response = Self.redirect("/signin")
        response.headers[.setCookie] = try await sessions.signOut(request, secure: isSecure(request))
        return response
    }

    // MARK: - Sign-in

    private func signInPage(_ request: WOPIRequest, next: String, message: String?, status: HTTPResponse.Status)
        -> WOPIResponse
    {
        let form = sessions.signInForm(for: request, secure: isSecure(request))
        var response = html(
            status, renderer.signIn(SignInPage(next: next, message: message, formToken: form.formToken)))
        response.headers[.setCookie] = form.cookie
        response.headers[.cacheControl] = "no-store"
        return response
    }

    private func signIn(_ request: WOPIRequest) async throws -> WOPIResponse {
        let form = try await request.form(limit: 16 * 1024) ?? WOPIQuery()
        let next = Self.safeNext(form["next"])
        guard sessions.acceptsSignIn(request, formToken: form["form_token"], origins: sameOriginCandidates(of: request))
        else {
            logger.notice("Host page sign-in refused: no valid form token, or another origin")
            return signInPage(
                request, next: next, message: "The sign-in form expired. Sign in again.", status: .forbidden)
        }
        let user: WOPIUser?
        do {
            user = try await accounts.authenticate(
                form["username"] ?? "", password: form["password"] ?? "", request: request)
        } catch let refusal as SignInRefusal {
            var response = signInPage(request, next: next, message: refusal.message, status: refusal.status)
            response.headers[.retryAfter] = String(refusal.retryAfter)
            return response
        }
        guard let user else {
            logger.notice("Host page sign-in failed")
            return signInPage(
                request, next: next, message: "The user name or password is incorrect.", status: .unauthorized)
        }
        var response = Self.redirect(next)
        response.headers[.setCookie] = try await sessions.cookie(for: user, secure: isSecure(request))
        return response
    }

    // MARK: - Files

    private func files(_ request: WOPIRequest, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        var shown: ItemID?
        if let raw = request.query["container"] {
            guard let id = ItemID(rawValue: raw) else { return notFound }
            shown = id
        }
        let view = try await host.containerView(shown, for: user)
        let (container, access) = (view.container, view.access)
        let client = try? await discovery?.discovery()
        var rows: [FileListPage.Row] = []
        for entry in view.entries {
            // What others share with the user is listed in the root, as Office's "Shared with me" folder lists it.
            let name = entry.isShared ? "\(SharedWithMe.name)/\(entry.item.name)" : entry.item.name
            switch entry.item {
            case .container(let child):
                rows.append(.init(name: name + "/", links: [.init(title: "Open", url: pages.files(in: child.id))]))
            case .file(let file):
                let ext = FileNameRules.split(file.name).extension
                var links: [FileListPage.Link] = []
                for action in ["view", "edit"]
                where client?.match(
                    action: action, fileExtension: ext, zones: discovery?.configuration.preferredZones ?? []) != nil
                {
                    links.append(
                        .init(title: action == "view" ? "View" : "Edit", url: pages.open(file.id, action: action)))
                }
                if entry.access.canRead { links.append(.init(title: "Download", url: pages.download(file.id))) }
                if keepsVersions { links.append(.init(title: "Versions", url: pages.versions(file.id))) }
                rows.append(.init(name: name, links: links))
            }
        }
        let parent = view.isRoot ? nil : pages.files(in: container.parentID == view.rootID ? nil : container.parentID)
        var page = FileListPage(
            userName: user.displayName, containerName: view.isRoot ? "My files" : container.name,
            parentURL: parent, rows: rows, newDocumentContainer: access.canCreateChildren ? container.id.rawValue : nil)
        if access.canCreateChildren, let client { page.templates = try await offeredTemplates(client) }
        return html(.ok, renderer.files(page))
    }

    /// The templates a new document can be made from: none unless the WOPI client loads `TemplateSource`
    /// (`hasTemplateSource` in its capabilities), and only those whose documents it edits.
    private func offeredTemplates(_ client: WOPIDiscovery) async throws -> [FileListPage.TemplateChoice] {
        guard let store = host.configuration.templates,
            (try? await discovery?.capabilities())?.hasTemplateSource == true
        else { return [] }
        let zones = discovery?.configuration.preferredZones ?? []
        return try await store.templates()
            .filter { client.match(action: "edit", fileExtension: $0.documentExtension, zones: zones) != nil }
            .map { FileListPage.TemplateChoice(id: $0.id, name: $0.name) }
    }

    /// `/new`: an empty document of `type`, opened with `editnew`, or one made from `template`, opened with `edit`
    /// (the editor loads the template from CheckFileInfo's `TemplateSource`). Both go through the host's door
    /// (``WOPIHost/createDocument(extension:in:for:)``), so the policy and every change guard decide.
    private func newDocument(_ request: WOPIRequest, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        let form = try await request.form(limit: 16 * 1024) ?? WOPIQuery()
        let cannotCreate = html(.badRequest, renderer.message(title: "Cannot create", "Cannot create a document here."))
        guard let container = form["container"].flatMap(ItemID.init(rawValue:)) else { return cannotCreate }
        do {
            if let templateID = form["template"] {
                let file = try await host.createDocument(fromTemplate: templateID, in: container, for: user)
                logger.info(
                    "Host page: new document from a template",
                    metadata: ["file": "\(file.id)", "user": "\(user.id)", "template": "\(templateID)"])
                return Self.redirect(pages.open(file.id, action: "edit"))
            }
            guard let type = form["type"], ["docx", "xlsx", "pptx"].contains(type) else { return cannotCreate }
            let file = try await host.createDocument(extension: type, in: container, for: user)
            logger.info("Host page: new document", metadata: ["file": "\(file.id)", "user": "\(user.id)"])
            return Self.redirect(pages.open(file.id, action: "editnew"))
        } catch let refusal as WOPIHTTPError where refusal.status == .unauthorized || refusal.status == .notFound {
            return cannotCreate
        } catch let error as StorageError where error.code == .notFound || error.code == .notAContainer {
            return cannotCreate
        }
    }

    // MARK: - Open and download

    private func open(_ id: ItemID, action: String, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        guard let discovery else { return noClient(pages.download(id)) }
        guard case (.file(let file), let found) = try await host.item(id, visibleTo: user) else { return notFound }
        let access = host.accessInEditor(found)
        let edits = action != "view" && access.canWrite
        let names = !edits ? ["view"] : action == "editnew" ? ["editnew", "edit"] : ["edit"]
        var match: DiscoveryActionMatch?
        var lastError: DiscoveryError?
        for name in names where match == nil {
            do { match = try await discovery.action(name, fileName: file.name) } catch { lastError = error }
        }
        guard let match else { throw lastError ?? DiscoveryError(.noAction, "No action for \(file.name).") }
        // The action chooses view or edit; the token carries the user's role, so the client can offer
        // "Edit" (UserCanWrite, HostEditUrl, UI_Edit) while viewing, and a link's role stays the link's.
        guard
            let (actionURL, token, expiresAt) = await client(
                match, opening: id, as: access.permission, for: user, pages)
        else { return unusableHost }
        let clientOrigin = Self.origin(of: actionURL)
        var closeURL = pages.files(in: file.parentID)
        var session: String?
        if edits {
            // The page's close names its session with a value only this page knows, so no other site can close it.
            let value = Base64URL.encode(Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }))
            await host.editingSessionOpened(file: id, session: Self.editingSession(value, of: user), until: expiresAt)
            closeURL = pages.close(id, session: value)
            session = value
        }
        let page = EditorFramePage(
            fileName: file.name, actionURL: actionURL, accessToken: token,
            accessTokenTTL: EpochMilliseconds.from(expiresAt), favIconURL: match.app.favIconURL,
            clientOrigin: clientOrigin, closeURL: closeURL,
            editURL: access.canWrite ? pages.open(id, action: "edit") : nil, shareURL: pages.open(id, action: "view"),
            downloadURL: found.canRead ? pages.download(id) : nil,
            versionsURL: keepsVersions ? pages.versions(id) : nil,
            editingSession: session)
        return framed(page)
    }

    /// The WOPI client's action URL for `id` (its WOPISrc below the pages' base) and an audited token of `user` for
    /// it, with `permission`; `nil` when the request's Host makes no usable URL.
    func client(
        _ match: DiscoveryActionMatch, opening id: ItemID, as permission: Permission, for user: WOPIUser,
        _ pages: HostPageURLs
    ) async -> (actionURL: String, token: String, expiresAt: Date)? {
        let wopiSrc = WOPIURLs(publicURL: pages.base, configuration: host.configuration).file(id)
        guard let wopiSrcURL = URL(string: wopiSrc) else { return nil }
        let (token, expiresAt) = host.mintToken(for: user, resource: .file(id), permission: permission)
        await host.auditTokenMint(userID: user.id, resource: .file(id), permission: permission, via: "host-page")
        return (match.action.url(wopiSrc: wopiSrcURL, values: urlOptions.values), token, expiresAt)
    }

    /// The page of an open whose Host header makes no usable WOPISrc.
    var unusableHost: WOPIResponse {
        html(.badRequest, renderer.message(title: "Cannot open", "The Host header is not usable."))
    }

    /// The page that frames the WOPI client, with the headers that protect it: nothing cached or sent as a referrer
    /// (the token is in the page), and a Content-Security-Policy that runs only the renderer's frame script and
    /// lets the page frame, post to and load images from the client's origin alone.
    func framed(_ page: EditorFramePage) -> WOPIResponse {
        var response = html(.ok, renderer.frame(page))
        response.headers[.cacheControl] = "no-store"
        response.headers[.referrerPolicy] = "no-referrer"
        let scriptHash = Data(SHA256.hash(data: Data(renderer.frameScript.utf8))).base64EncodedString()
        let client = page.clientOrigin
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-\(scriptHash)'; "
            + "frame-src \(client); form-action \(client); img-src \(client); connect-src 'self'; base-uri 'none'"
        return response
    }

    /// The page of an open without a WOPI client: the file's download instead.
    func noClient(_ download: String) -> WOPIResponse {
        html(
            .notFound,
            renderer.message(
                title: "No WOPI client",
                "This host has no WOPI client to open files with (it was started without discovery). Download the "
                    + "file instead: \(download)"))
    }

    /// The WOPI client's close of an editing session the host page opened: the session ends
    /// (``WOPIHostConfiguration/endedSessionLocks``), and the user goes back to the file's folder.
    private func close(_ id: ItemID, session: String?, user: WOPIUser, pages: HostPageURLs) async throws
        -> WOPIResponse
    {
        // Without access the file does not exist for this user: no redirect names its folder.
        guard case (.file(let file), _) = try await host.item(id, visibleTo: user) else { return notFound }
        if let session { try await host.editingSessionEnded(file: id, session: Self.editingSession(session, of: user)) }
        return Self.redirect(pages.files(in: file.parentID))
    }

    /// The download of a file's current content, or of `version` of it.
    private func download(_ id: ItemID, version: String?, user: WOPIUser) async throws -> WOPIResponse {
        let content =
            if let version { try await host.readVersion(version, of: id, for: user) } else {
                try await host.readFile(id, for: user)
            }
        let file = content.metadata
        var response = WOPIResponse(
            status: .ok, body: .stream(ByteStream(content.body, knownLength: content.metadata.size)))
        response.headers[.contentType] = "application/octet-stream"
        response.headers[.contentDisposition] = "attachment; filename*=UTF-8''" + PercentEncoding.encode(file.name)
        return response
    }

    // MARK: - Share links

    /// Redeems a GetShareUrl link for the signed-in user (``WOPIHost/redeemShareLink(_:for:)``), then shows the
    /// item.
    private func redeemShareLink(_ token: String, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        guard let (item, access) = try await host.redeemShareLink(token, for: user) else {
            return html(.notFound, renderer.message(title: "Link expired", "This share link is not valid any more."))
        }
        switch item {
        case .container(let container):
            return Self.redirect(pages.files(in: container.id))
        case .file(let file):
            return discovery == nil
                ? Self.redirect(pages.files(in: nil))
                : Self.redirect(pages.open(file.id, action: host.accessInEditor(access).canWrite ? "edit" : "view"))
        }
    }

    // MARK: - Helpers

    /// The host's name of the editing session a page opened for `user` with `value` (the page's own secret).
    static func editingSession(_ value: String, of user: WOPIUser) -> String { user.id + ":" + value }

    private func baseURL(for request: WOPIRequest) -> String {
        request.baseURL(publicURL: base.url, defaultScheme: host.configuration.scheme)
    }

    /// Whether the browser reached the host over HTTPS (directly, through the public URL, or through a proxy that
    /// says so in `X-Forwarded-Proto`): cookies are then `Secure`.
    private func isSecure(_ request: WOPIRequest) -> Bool {
        baseURL(for: request).hasPrefix("https:") || request.forwardedProto?.lowercased() == "https"
    }

    /// The origins a form of these pages is posted from: the host's public base URL, and the origin the request
    /// itself addressed.
    func sameOriginCandidates(of request: WOPIRequest) -> [String] {
        [baseURL(for: request), request.origin(defaultScheme: host.configuration.scheme)].compactMap { $0 }
    }

    /// A local path to return to after sign-in: never another site.
    ///
    /// Browsers drop tabs and line breaks anywhere in a URL and read `\` as `/` (the WHATWG URL standard), so
    /// `/<TAB>/evil.example` is `//evil.example` to them. A path is kept only when it starts with one `/`, is printable
    /// ASCII without a space or backslash (the pages' own links are percent-encoded), and parses as a path without a
    /// scheme or host.
    static func safeNext(_ next: String?) -> String {
        let fallback = "/files"
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"),
            next.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "\\" }),
            let components = URLComponents(string: next), components.scheme == nil, components.host == nil
        else { return fallback }
        return next
    }

    /// `scheme://host[:port]` of a URL.
    static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
        else { return "null" }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    func html(_ status: HTTPResponse.Status, _ text: String) -> WOPIResponse {
        var response = WOPIResponse(status: status, body: .buffer(ByteBuffer(string: text)))
        response.headers[.contentType] = "text/html; charset=utf-8"
        response.headers[.xFrameOptions] = "DENY"
        return response
    }

    static func redirect(_ location: String) -> WOPIResponse {
        var response = WOPIResponse(status: .seeOther)
        response.headers[.location] = location
        return response
    }

    var notFound: WOPIResponse { page(.notFound, ErrorPageMessage(status: .notFound)) }

    /// The page of an error: `message` drawn by the renderer, at `status`.
    private func page(_ status: HTTPResponse.Status, _ message: ErrorPageMessage) -> WOPIResponse {
        html(status, renderer.message(title: message.title, message.text))
    }
}
