import WOPIModels
import WOPIStorage

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
        try context.require(context.access.isOwner && context.access.canWrite, "sharing (only the owner shares)")
        let url = links.url(
            for: item, type: type, grantor: context.user.id, publicURL: publicBase(for: request), now: now())
        return try .json(ShareURLResponse(shareURL: url))
    }
}
