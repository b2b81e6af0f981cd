import HTTPTypes
import Logging
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage

/// The versions view of a file: `GET /versions/{fileID}` lists what the storage keeps (``WOPIHost/versions(of:for:)``),
/// each with its download (`/download/{fileID}?version=…`), and `POST /versions/{fileID}` restores one, or marks it
/// kept by name or not (`action` `restore`, `keep` or `release`, and `version`). Office for the web reaches it
/// through CheckFileInfo's `FileVersionUrl` and the host page's `UI_FileVersions`; the file list links it.
extension HostPages {
    /// The routes of the versions view.
    var versionRoutes: [HTTPRoute] {
        [
            signedIn(.get, "/versions/:id") { pages, request, user, urls in
                guard let id = Self.itemID(request) else { return pages.notFound }
                return try await pages.versions(id, user: user, pages: urls)
            },
            signedIn(.post, "/versions/:id") { pages, request, user, urls in
                guard let id = Self.itemID(request) else { return pages.notFound }
                return try await pages.changeVersion(request, of: id, user: user, pages: urls)
            },
        ]
    }

    private func versions(_ id: ItemID, user: WOPIUser, pages: HostPageURLs) async throws -> WOPIResponse {
        guard case (.file(let file), let access) = try await host.item(id, visibleTo: user) else { return notFound }
        var names: [String: String] = [:]
        var rows: [VersionListPage.Row] = []
        for version in try await host.versions(of: id, for: user) {
            var savedBy: String?
            if let saver = version.save.userID {
                if names[saver] == nil { names[saver] = try await host.users.user(saver)?.displayName ?? saver }
                savedBy = names[saver]
            }
            rows.append(.init(version: version, savedBy: savedBy, downloadURL: pages.download(id, version: version.id)))
        }
        let page = VersionListPage(
            fileName: file.name, filesURL: pages.files(in: file.parentID), formURL: pages.versions(id),
            canChange: access.canWrite, rows: rows)
        var response = html(.ok, renderer.versions(page))
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
                let restored = try await host.restoreVersion(version, of: id, for: user)
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
    /// Whether the host's storage keeps versions: the file list and the editor's page then link the versions view.
    var keepsVersions: Bool { host.storage is any VersionedStorage }
}
