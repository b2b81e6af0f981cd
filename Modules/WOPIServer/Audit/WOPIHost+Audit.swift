import Foundation
import HTTPTypes
import Logging
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// Records `event` in ``audit``, if the host has one. A log that fails is reported in the host's log and never
    /// fails the request: the editor's save matters more than its record.
    func audit(_ event: AuditEvent) async {
        await audit?.record(event, reportingFailuresTo: logger)
    }

    /// Records what a performed operation did: an open (submitted, not awaited), a save (with the editors and the
    /// autosave and exit-save flags the client sent), a PutRelativeFile, a rename, a delete, a share link.
    func auditPerformed(
        _ operation: WOPIOperation, request: WOPIRequest, context: RequestContext, response: WOPIResponse
    ) async {
        guard audit != nil, (200..<300).contains(response.status.code), let resource = operation.resource else {
            return
        }
        let action: AuditEvent.Action
        var details: [String: String] = [:]
        switch operation {
        case .checkFileInfo: action = .open
        case .putFile:
            action = .save
            let put = ClientSaveHeaders(request).details
            if !put.editors.isEmpty { details["editors"] = put.editors.joined(separator: ",") }
            if let autosave = put.isAutosave { details["autosave"] = "\(autosave)" }
            if let exitSave = put.isExitSave { details["exitSave"] = "\(exitSave)" }
            if let size = put.size { details["size"] = "\(size)" }
        case .chunkedTransfer(_, .putChunkedFile): action = .save
        case .putRelativeFile: action = .putRelative
        case .renameFile, .renameContainer: action = .rename
        case .deleteFile, .deleteContainer: action = .delete
        case .getFileShareURL, .getContainerShareURL:
            action = .share
            details["link"] = request.header(WOPIHeader.urlType) ?? "-"
        default: return
        }
        let event = AuditEvent(action, at: now(), userID: context.user.id, itemID: resource.itemID, details: details)
        if action == .open {
            // An editor repeats CheckFileInfo while a document is open, and its answer needs nothing from the log: the
            // open is submitted (`AuditLog.submit`), not awaited.
            await audit?.submit(event, reportingFailuresTo: logger)
        } else {
            await audit(event)
        }
    }

    /// Records a WOPI access token minted for `userID` and `resource` on a request of `via` (`host-page`,
    /// `GetNewAccessToken`, ...): `token-minted` with `kind` `wopi`, never the token.
    package func auditTokenMint(
        userID: String, resource: AccessToken.Resource, permission: Permission = .edit, via: String,
        address: String? = nil
    ) async {
        await audit(
            AuditEvent(
                .tokenMinted, at: now(), userID: userID, itemID: resource.itemID, address: address,
                details: ["kind": "wopi", "via": via, "permission": "\(permission)"]))
    }

    /// Records a lock conflict that `error` is, if it is one (`409` with `X-WOPI-Lock`).
    func auditLockConflict(_ error: any Error, operation: WOPIOperation, context: RequestContext) async {
        guard let error = error as? WOPIHTTPError, error.status == .conflict, error.headers[.wopiLock] != nil else {
            return
        }
        await audit(
            AuditEvent(
                .lockConflict, at: now(), userID: context.user.id, itemID: operation.resource?.itemID,
                details: ["operation": operation.name]))
    }
}

extension AccessToken.Resource {
    /// The ID of the file or container, `nil` for the ecosystem.
    var itemID: String? {
        switch self {
        case .file(let id), .container(let id): id.rawValue
        case .ecosystem: nil
        }
    }
}
