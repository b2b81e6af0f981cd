import Crypto
import Foundation
import WOPIModels
import WOPIStorage

/// The links GetShareUrl answers with: a signed reference to an item and a permission, opened on a page of the
/// host that, once the visitor signed in, grants them that permission (a ``Share``).
///
/// A link is the host's public URL, ``pagePath`` and a token signed with a key derived from the host's token key for
/// this purpose only, so a share link is never accepted as a WOPI access token, nor the other way round.
public struct ShareLinks: Sendable {
    /// The path of the page that redeems links, ending with `/` (for example `/share/`).
    public let pagePath: String
    /// How long a link stays valid.
    public let lifetime: TimeInterval
    private let signer: AccessTokenSigner

    /// Creates the links of a host.
    ///
    /// - Parameters:
    ///   - tokenKey: the key of the host's ``AccessTokenSigner``; a separate key is derived from it.
    ///   - pagePath: the path of the page that redeems links, below the host's public URL; the token is appended.
    ///   - lifetime: how long a link stays valid (default 30 days).
    public init(tokenKey: SymmetricKey, pagePath: String = "/share/", lifetime: TimeInterval = 30 * 24 * 3600) {
        let derived = HMAC<SHA256>.authenticationCode(for: Data("wopikit share links v1".utf8), using: tokenKey)
        signer = AccessTokenSigner(key: SymmetricKey(data: Data(derived)))
        let path = pagePath.hasPrefix("/") ? pagePath : "/" + pagePath
        self.pagePath = path.hasSuffix("/") ? path : path + "/"
        self.lifetime = lifetime
    }

    /// The link, below `publicURL` (scheme and authority), that gives whoever opens it `type`'s permission on `item`,
    /// on behalf of `grantor`.
    public func url(
        for item: StorageItem, type: ShareURLType, grantor: String, publicURL: String, now: Date
    ) -> String {
        let resource: AccessToken.Resource =
            switch item {
            case .file(let file): .file(file.id)
            case .container(let container): .container(container.id)
            }
        let claims = AccessToken(
            userID: grantor, resource: resource, expiresAt: now.addingTimeInterval(lifetime),
            permission: type.permission)
        return publicURL.trimmingSuffix("/") + pagePath + signer.mint(claims)
    }

    /// What a link grants: the item, the permission and who shared it.
    public struct Grant: Sendable, Hashable {
        /// The shared item.
        public var itemID: ItemID
        /// The permission the link gives.
        public var permission: Permission
        /// The user who made the link.
        public var grantor: String
    }

    /// Reads the token of a link (the part after ``pagePath``); `nil` when it is not genuine or has expired.
    public func grant(ofToken token: String, now: Date) -> Grant? {
        guard let claims = try? signer.verify(token, now: now) else { return nil }
        switch claims.resource {
        case .file(let id), .container(let id):
            return Grant(itemID: id, permission: claims.permission, grantor: claims.userID)
        case .ecosystem:
            return nil
        }
    }
}

/// A share URL type of GetShareUrl (`X-WOPI-UrlType`) and `SupportedShareUrlTypes`.
public enum ShareURLType: String, Sendable, Hashable, CaseIterable {
    /// A link that lets its visitor view the item.
    case readOnly = "ReadOnly"
    /// A link that lets its visitor view and edit the item.
    case readWrite = "ReadWrite"

    /// The permission the link gives.
    public var permission: Permission { self == .readOnly ? .view : .edit }
}
