import Foundation
import Logging
import WOPIHTTPEdge
import WOPIModels
public import WOPIStorage

extension WOPIHost {
    /// GetShareUrl for a file or a container (Docs/wopi-protocol.md §4.12, §7.8): a link of the requested type
    /// from ``WOPIHostConfiguration/shareLinks``. Only the owner shares (others get 401); a missing, unknown or
    /// unsupported `X-WOPI-UrlType`, or a host without share links, gets 501.
    func shareURL(for item: StorageItem, request: WOPIRequest, context: RequestContext) async throws -> WOPIResponse {
        guard let links = configuration.shareLinks else {
            throw WOPIHTTPError.notImplemented("This host makes no share URLs.")
        }
        guard let raw = request.header(WOPIHeader.urlType), let type = ShareURLType(rawValue: raw) else {
            throw WOPIHTTPError.notImplemented("X-WOPI-UrlType must be ReadOnly or ReadWrite.")
        }
        let url = try await links.url(
            for: item, type: type, grantor: context.user.id, publicURL: publicBase(for: request), now: now())
        return try .json(ShareURLResponse(shareURL: url))
    }

    /// Redeems a share link (``ShareLinks``) for a signed-in user: the item, and what `user` may now do with it;
    /// `nil` when the link is not genuine, expired or revoked, the host makes no links, or the link no longer
    /// speaks for the item (its owner is gone or the item changed hands).
    ///
    /// A user with no access to the item gets a ``Share`` of the link's permission from the owner, recorded in
    /// ``ShareLinks/store`` (without a store, nothing is recorded); a user who has some access keeps exactly that (a
    /// link never widens nor narrows a share the owner chose).
    public func redeemShareLink(_ token: String, for user: WOPIUser) async throws -> (
        item: StorageItem, access: ItemAccess
    )? {
        guard let links = configuration.shareLinks, let grant = links.grant(ofToken: token, now: now()),
            try await links.isRecorded(token, itemID: grant.itemID)
        else { return nil }
        let item: StorageItem
        do {
            item = try await storage.item(grant.itemID)
        } catch let error as StorageError where error.code == .notFound {
            return nil
        }
        guard try await users.user(grant.grantor) != nil, item.ownerID == grant.grantor else { return nil }
        let current = try await self.access(of: user, to: item)
        let redeemed = AuditEvent(
            .shareLinkRedeemed, at: now(), userID: user.id, itemID: item.id.rawValue,
            details: ["permission": "\(grant.permission)", "grantor": grant.grantor, "granted": "false"])
        guard current.permission == .none, let store = links.store else {
            await audit(redeemed)
            return (item, current)
        }
        try await store.grant(
            Share(
                itemID: item.id, granteeID: user.id, permission: grant.permission, grantedBy: grant.grantor,
                grantedAt: now()))
        logger.info(
            "Share link redeemed",
            metadata: ["item": "\(item.id)", "user": "\(user.id)", "permission": "\(grant.permission)"])
        var granted = redeemed
        granted.details["granted"] = "true"
        await audit(granted)
        return (item, try await self.access(of: user, to: item))
    }
}
