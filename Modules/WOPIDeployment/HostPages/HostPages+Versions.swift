import Foundation
import HTTPTypes
import Logging
import NIOCore
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage

/// The versions view of a file: `GET /versions/{fileID}` lists what the storage keeps (``WOPIHost/versions(of:for:)``),
/// each with its download (`/download/{fileID}?version=…`), as a page or, with `?format=json`, as JSON for the panel
/// of a page that frames an editor; `POST /versions/{fileID}` restores one, or marks it kept by name or not (`action`
/// `restore`, `keep` or `release`, and `version`; `session`, from the editor's page, once its editor acknowledged a
/// restore). Office for the web reaches it through CheckFileInfo's `FileVersionUrl` and the host page's
/// `UI_FileVersions`; the file list links it.
extension HostPages {
    /// The routes of the versions view.
    var versionRoutes: [HTTPRoute] {
        [
            signedIn(.get, "/versions/:id") { pages, request, user, urls in
                guard let id = Self.itemID(request) else { return pages.notFound }
                return try await pages.versions(id, asJSON: request.query["format"] == "json", user: user, pages: urls)
            },
            signedIn(.post, "/versions/:id") { pages, request, user, urls in
                guard let id = Self.itemID(request) else { return pages.notFound }
                return try await pages.changeVersion(request, of: id, user: user, pages: urls)
            },
        ]
    }

    private func versions(_ id: ItemID, asJSON: Bool, user: WOPIUser, pages: HostPageURLs) async throws
        -> WOPIResponse
    {
        guard case (.file(let file), let access) = try await host.item(id, visibleTo: user) else { return notFound }
        let opens = (try? await discovery?.action("view", fileName: file.name)) != nil
        var names: [String: String] = [:]
        var rows: [VersionListPage.Row] = []
        for version in try await host.versions(of: id, for: user) {
            var savedBy: String?
            if let saver = version.save.userID {
                if names[saver] == nil { names[saver] = try await host.users.user(saver)?.displayName ?? saver }
                savedBy = names[saver]
            }
            rows.append(
                .init(
                    version: version, savedBy: savedBy, downloadURL: pages.download(id, version: version.id),
                    openURL: opens ? pages.open(id, version: version.id) : nil))
        }
        let page = VersionListPage(
            fileName: file.name, filesURL: pages.files(in: file.parentID), formURL: pages.versions(id),
            canChange: access.canWrite, rows: rows)
        var response: WOPIResponse
        if asJSON {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            response = WOPIResponse(
                status: .ok,
                body: .buffer(ByteBuffer(bytes: try encoder.encode(page.rows.map { VersionJSON(row: $0) }))))
            response.headers[.contentType] = "application/json"
        } else {
            response = html(.ok, renderer.versions(page))
        }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// Restores a version, or keeps or releases one, then shows the list again. A page elsewhere must not (CSRF): a
    /// sent Origin must be the host's own, and the session cookie is `SameSite=Lax`.
    private func changeVersion(_ request: WOPIRequest, of id: ItemID, user: WOPIUser, pages: HostPageURLs)
        async throws -> WOPIResponse
    {
        guard HostSessions.isSentFromOneOf(sameOriginCandidates(of: request), request) else {
            logger.notice("Host page version change refused: another origin")
            return html(.forbidden, renderer.message(title: "Cannot change", "Change versions from this site's pages."))
        }
        let form = try await request.form(limit: 16 * 1024) ?? WOPIQuery()
        guard let version = form["version"], !version.isEmpty else {
            return html(.badRequest, renderer.message(title: "Cannot change", "Choose a version."))
        }
        do {
            switch form["action"] {
            case "restore":
                let session = form["session"].map { Self.editingSession($0, of: user) }
                let restored = try await host.restoreVersion(version, of: id, for: user, editingSession: session)
                logger.info(
                    "Host page: version restored",
                    metadata: [
                        "file": "\(id)", "user": "\(user.id)", "version": "\(version)",
                        "newVersion": "\(restored.version)",
                    ])
            case "keep": try await host.keepVersion(version, of: id, true, for: user)
            case "release": try await host.keepVersion(version, of: id, false, for: user)
            default: return html(.badRequest, renderer.message(title: "Cannot change", "Restore, keep or release."))
            }
        } catch let refusal as WOPIHTTPError where refusal.status == .conflict {
            return html(
                .conflict,
                renderer.message(
                    title: "Open in an editor",
                    "Someone has this file open in an editor. Restore the version once the editor closed it."))
        }
        return Self.redirect(pages.versions(id))
    }
}

extension HostPages {
    /// `/open/{fileID}?version=…`: one version in the WOPI client, read-only, through its ``VersionView`` (a WOPISrc
    /// of its own, which no write reaches); the client's close goes back to the versions view.
    func open(_ id: ItemID, version: String, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        guard let discovery else { return noClient(pages.download(id, version: version)) }
        guard case (.file(let file), let access) = try await host.item(id, visibleTo: user) else { return notFound }
        guard let saved = try await host.versions(of: id, for: user).first(where: { $0.id == version }),
            let viewID = VersionView(file: id, version: version).id
        else { return notFound }
        let match = try await discovery.action("view", fileName: file.name)
        guard let (actionURL, token, expiresAt) = await client(match, opening: viewID, as: .view, for: user, pages)
        else { return unusableHost }
        return framed(
            EditorFramePage(
                fileName: "\(file.name) (\(saved.savedAt.formatted(.iso8601)))", actionURL: actionURL,
                accessToken: token, accessTokenTTL: EpochMilliseconds.from(expiresAt), favIconURL: match.app.favIconURL,
                clientOrigin: Self.origin(of: actionURL), closeURL: pages.versions(id), editURL: nil,
                shareURL: pages.open(id, action: "view"),
                downloadURL: access.canRead ? pages.download(id, version: version) : nil,
                versionsURL: pages.versions(id), editingSession: nil))
    }
}

/// A version as `GET /versions/{fileID}?format=json` lists it: the version's own JSON (``FileVersion``'s), with
/// `savedByName` (the saver's display name), `downloadURL` and `openURL`.
private struct VersionJSON: Encodable {
    let row: VersionListPage.Row

    private enum CodingKeys: String, CodingKey { case savedByName, downloadURL, openURL }

    func encode(to encoder: any Encoder) throws {
        try row.version.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(row.savedBy, forKey: .savedByName)
        try container.encode(row.downloadURL, forKey: .downloadURL)
        try container.encodeIfPresent(row.openURL, forKey: .openURL)
    }
}

extension HostPages {
    /// Whether the host's storage keeps versions: the file list and the editor's page then link the versions view.
    var keepsVersions: Bool { host.storage is any VersionedStorage }
}
