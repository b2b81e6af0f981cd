import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import WOPIAuthorizationServer
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIServerHummingbird
import WOPIStorage

/// The example host's pages for Office for the web and other WOPI clients: sign-in (the same account check as
/// OAuth) with a session cookie, the user's files, `/open/{fileID}?action=view|edit|editnew` framing the WOPI
/// client, `/new` for an empty document opened with `editnew`, `/download/{fileID}`, and `/share/{token}`, which
/// redeems a GetShareUrl link. Without a WOPI client (`discovery` nil) the pages list, download and share files.
struct HostPages: Sendable {
    let host: WOPIHost
    let discovery: DiscoveryClient?
    let accounts: OAuthAuthorizationServer
    /// Where redeemed share links are recorded.
    let shares: any ShareStore
    let sessions: HostSessions
    let base: PublicBaseURL
    /// The UI language and other placeholders of action URLs.
    let urlOptions: ActionURLOptions
    let logger: Logger

    /// Mounts the pages on a Hummingbird router.
    func add<Context: RequestContext>(to router: Router<Context>) {
        for path in ["signin", "files", "new", "open/:id", "download/:id", "share/:token"] {
            for method in [HTTPRequest.Method.get, .post] {
                router.on(RouterPath(path), method: method) { request, context in
                    await handle(WOPIRequest(request, context: context)).hummingbirdResponse
                }
            }
        }
    }

    /// Answers one page request; failures are pages, never thrown.
    func handle(_ request: WOPIRequest) async -> WOPIResponse {
        do {
            return try await route(request)
        } catch let error as DiscoveryError {
            logger.warning("Host page: discovery", metadata: ["error": "\(error)"])
            return Self.html(
                .badGateway, HostPageHTML.page(title: "Cannot open", "<p>\(HTMLEscaping.escape(error.message))</p>"))
        } catch let error as StorageError where error.code == .notFound || error.code == .notAFile {
            return Self.notFound
        } catch {
            logger.error("Host page failed", metadata: ["path": "\(request.path)", "error": "\(error)"])
            return Self.html(.internalServerError, HostPageHTML.page(title: "Error", "<p>The host failed.</p>"))
        }
    }

    private func route(_ request: WOPIRequest) async throws -> WOPIResponse {
        let path = request.path
        if path == "/signin" {
            return request.method == .post
                ? try await signIn(request)
                : Self.html(.ok, HostPageHTML.signIn(next: Self.safeNext(request.query["next"]), message: nil))
        }
        guard let userID = sessions.userID(of: request), let user = try await host.users.user(userID) else {
            guard request.method == .get else {
                return Self.html(.unauthorized, HostPageHTML.signIn(next: "/files", message: "Sign in first."))
            }
            return Self.redirect("/signin?next=" + PercentEncoding.encode(request.target))
        }
        let pages = HostPageURLs(base: baseURL(for: request))
        switch (request.method, path) {
        case (.get, "/files"):
            return try await files(request, user: user, pages: pages)
        case (.post, "/new"):
            return try await newDocument(request, user: user, pages: pages)
        case (.get, _) where path.hasPrefix("/open/"):
            guard let id = ItemID(rawValue: String(path.dropFirst("/open/".count))) else { return Self.notFound }
            return try await open(id, action: request.query["action"] ?? "view", user: user, pages: pages)
        case (.get, _) where path.hasPrefix("/download/"):
            guard let id = ItemID(rawValue: String(path.dropFirst("/download/".count))) else { return Self.notFound }
            return try await download(id, user: user)
        case (.get, _) where path.hasPrefix("/share/"):
            return try await redeemShareLink(String(path.dropFirst("/share/".count)), user: user, pages: pages)
        default:
            return Self.notFound
        }
    }

    // MARK: - Sign-in

    private func signIn(_ request: WOPIRequest) async throws -> WOPIResponse {
        let form = WOPIQuery(encoded: Substring(String(buffer: try await request.body.collect(upTo: 16 * 1024))))
        let next = Self.safeNext(form["next"])
        let user: WOPIUser?
        do {
            user = try await accounts.authenticate(
                form["username"] ?? "", password: form["password"] ?? "", request: request)
        } catch let refusal as SignInRefusal {
            var response = Self.html(refusal.status, HostPageHTML.signIn(next: next, message: refusal.message))
            response.headers[.retryAfter] = String(refusal.retryAfter)
            return response
        }
        guard let user else {
            logger.notice("Host page sign-in failed")
            return Self.html(
                .unauthorized, HostPageHTML.signIn(next: next, message: "The user name or password is incorrect."))
        }
        var response = Self.redirect(next)
        response.headers[.setCookie] = sessions.cookie(for: user.id)
        return response
    }

    // MARK: - Files

    private func files(_ request: WOPIRequest, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        let root = try await host.storage.rootContainer(forUser: user.id)
        var container = root
        if let raw = request.query["container"] {
            guard let id = ItemID(rawValue: raw), case .container(let found) = try await host.storage.item(id),
                try await host.policy.access(of: user, to: .container(found)).permission > .none
            else { return Self.notFound }
            container = found
        }
        let client = try? await discovery?.discovery()
        let children = try await host.storage.children(of: container.id)
        let accesses = try await host.policy.access(of: user, to: children)
        var listed = zip(children, accesses).filter { $0.1.permission > .none }.map { ($0.0, $0.0.name) }
        if container.id == root.id {
            // What others share with the user, as Office's "Shared with me" folder lists it.
            listed += try await host.policy.sharedItems(with: user).map { ($0, "\(SharedWithMe.name)/\($0.name)") }
        }
        var rows: [(name: String, links: [(String, String)])] = []
        for (item, name) in listed {
            switch item {
            case .container(let child):
                rows.append((name + "/", [("Open", pages.files(in: child.id))]))
            case .file(let file):
                let ext = FileNameRules.split(file.name).extension
                var links: [(String, String)] = []
                for action in ["view", "edit"]
                where client?.match(
                    action: action, fileExtension: ext, zones: discovery?.configuration.preferredZones ?? []) != nil
                {
                    links.append((action == "view" ? "View" : "Edit", pages.open(file.id, action: action)))
                }
                links.append(("Download", pages.download(file.id)))
                rows.append((name, links))
            }
        }
        let parent =
            container.id == root.id ? nil : pages.files(in: container.parentID == root.id ? nil : container.parentID)
        return Self.html(
            .ok,
            HostPageHTML.files(
                userName: user.displayName, container: container.id == root.id ? "My files" : container.name,
                parent: parent, items: rows, newDocumentContainer: container.id.rawValue))
    }

    private func newDocument(_ request: WOPIRequest, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        let form = WOPIQuery(encoded: Substring(String(buffer: try await request.body.collect(upTo: 16 * 1024))))
        guard let type = form["type"], ["docx", "xlsx", "pptx"].contains(type),
            let id = form["container"].flatMap(ItemID.init(rawValue:)),
            case .container(let container) = try await host.storage.item(id),
            try await host.policy.access(of: user, to: .container(container)).canCreateChildren
        else {
            return Self.html(
                .badRequest, HostPageHTML.page(title: "Cannot create", "<p>Cannot create a document here.</p>"))
        }
        let base = host.configuration.defaultNewFileBaseName
        var name = "\(base).\(type)"
        var number = 2
        while try await host.storage.child(named: name, in: container.id) != nil {
            name = "\(base) \(number).\(type)"
            number += 1
        }
        let file = try await host.storage.createFile(named: name, in: container.id, content: .empty, overwrite: false)
        logger.info("Host page: new document", metadata: ["file": "\(file.id)", "user": "\(user.id)"])
        return Self.redirect(pages.open(file.id, action: "editnew"))
    }

    // MARK: - Open and download

    private func open(_ id: ItemID, action: String, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        guard let discovery else {
            return Self.html(
                .notFound,
                HostPageHTML.page(
                    title: "No WOPI client",
                    "<p>This host has no WOPI client to open files with: start <code>wopi-host serve</code> with "
                        + "<code>--discovery-url</code>. <a href=\"\(pages.download(id))\">Download</a> the file "
                        + "instead.</p>"))
        }
        let file = try await host.storage.file(id)
        let access = try await host.policy.access(of: user, to: .file(file))
        guard access.permission > .none else { return Self.notFound }
        let edits = action != "view" && access.canWrite
        let names = !edits ? ["view"] : action == "editnew" ? ["editnew", "edit"] : ["edit"]
        var match: DiscoveryActionMatch?
        var lastError: DiscoveryError?
        for name in names where match == nil {
            do { match = try await discovery.action(name, fileName: file.name) } catch { lastError = error }
        }
        guard let match else { throw lastError ?? DiscoveryError(.noAction, "No action for \(file.name).") }
        let expiresAt = Date().addingTimeInterval(host.configuration.accessTokenLifetime)
        // The action chooses view or edit; the token carries what the user may do, so the client can offer
        // "Edit" (UserCanWrite, HostEditUrl, UI_Edit) while viewing.
        let token = host.tokens.mint(
            AccessToken(
                userID: user.id, resource: .file(id), expiresAt: expiresAt, permission: access.canWrite ? .edit : .view)
        )
        let wopiSrc = WOPIURLs(publicURL: pages.base, configuration: host.configuration).file(id)
        guard let wopiSrcURL = URL(string: wopiSrc) else {
            return Self.html(
                .badRequest, HostPageHTML.page(title: "Cannot open", "<p>The Host header is not usable.</p>"))
        }
        let actionURL = match.action.url(wopiSrc: wopiSrcURL, values: urlOptions.values)
        let clientOrigin = Self.origin(of: actionURL)
        let page = HostPageHTML.frame(
            .init(
                fileName: file.name, actionURL: actionURL, accessToken: token,
                accessTokenTTL: EpochMilliseconds.from(expiresAt), favIconURL: match.app.favIconURL,
                clientOrigin: clientOrigin, closeURL: pages.files(in: file.parentID),
                editURL: access.canWrite ? pages.open(id, action: "edit") : nil,
                shareURL: pages.open(id, action: "view"),
                downloadURL: pages.download(id)))
        var response = Self.html(.ok, page)
        response.headers[.cacheControl] = "no-store"
        response.headers[.referrerPolicy] = "no-referrer"
        let scriptHash = Data(SHA256.hash(data: Data(HostPageHTML.script.utf8))).base64EncodedString()
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-\(scriptHash)'; "
            + "frame-src \(clientOrigin); form-action \(clientOrigin); img-src \(clientOrigin); base-uri 'none'"
        return response
    }

    private func download(_ id: ItemID, user: WOPIUser) async throws -> WOPIResponse {
        let file = try await host.storage.file(id)
        guard try await host.policy.access(of: user, to: .file(file)).permission > .none else { return Self.notFound }
        let content = try await host.storage.readFile(id)
        var response = WOPIResponse(
            status: .ok, body: .stream(ByteStream(content.body, knownLength: content.metadata.size)))
        response.headers[.contentType] = "application/octet-stream"
        response.headers[.contentDisposition] = "attachment; filename*=UTF-8''" + PercentEncoding.encode(file.name)
        return response
    }

    // MARK: - Share links

    /// Redeems a GetShareUrl link for the signed-in user: records a ``Share`` of the link's kind (unless the user owns
    /// the item, or has as much already), then shows the item.
    private func redeemShareLink(_ token: String, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        guard let links = host.configuration.shareLinks, let grant = links.grant(ofToken: token, now: Date()) else {
            return Self.html(
                .notFound, HostPageHTML.page(title: "Link expired", "<p>This share link is not valid any more.</p>"))
        }
        let item = try await host.storage.item(grant.itemID)
        guard try await host.users.user(grant.grantor) != nil, item.ownerID == grant.grantor else {
            return Self.notFound  // the owner is gone, or the item changed hands: the link no longer speaks for it
        }
        let current = try await host.policy.access(of: user, to: item)
        if current.permission < grant.permission {
            try await shares.grant(
                Share(
                    itemID: item.id, granteeID: user.id, permission: grant.permission, grantedBy: grant.grantor,
                    grantedAt: Date()))
            logger.info(
                "Share link redeemed",
                metadata: ["item": "\(item.id)", "user": "\(user.id)", "permission": "\(grant.permission)"])
        }
        switch item {
        case .container(let container):
            return Self.redirect(pages.files(in: container.id))
        case .file(let file):
            let action = grant.permission == .edit || current.canWrite ? "edit" : "view"
            return discovery == nil
                ? Self.redirect(pages.files(in: nil)) : Self.redirect(pages.open(file.id, action: action))
        }
    }

    // MARK: - Helpers

    private func baseURL(for request: WOPIRequest) -> String {
        base.url ?? request.origin(defaultScheme: host.configuration.scheme) ?? "http://localhost"
    }

    /// A local path to return to after sign-in: never another site.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\") else { return "/files" }
        return next
    }

    /// `scheme://host[:port]` of a URL.
    static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
        else { return "null" }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    static func html(_ status: HTTPResponse.Status, _ text: String) -> WOPIResponse {
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

    static let notFound = html(.notFound, HostPageHTML.page(title: "Not found", "<p>No such page or file.</p>"))
}
