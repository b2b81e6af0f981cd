public import Crypto
public import Foundation
import WOPIHTTPEdge
import WOPIModels
public import WOPIStorage

/// The links GetShareUrl answers with: a signed reference to an item and a permission, opened on a page of the
/// host that, once the visitor signed in, grants them that permission (a ``Share``).
///
/// A link is the host's public URL, ``pagePath`` and a token signed with a key derived from the host's token key for
/// this purpose only, so a share link is never accepted as a WOPI access token, nor the other way round.
///
/// **What a link grants.** Anyone who holds a link and signs in to the host gets the link's role (view for
/// `ReadOnly`, edit for `ReadWrite`, or any role ``url(for:role:grantor:publicURL:now:)`` was given) on the item, recorded as a ``Share`` from the owner, until the link expires
/// (``lifetime``) or is revoked. A link never changes the access of a user who already has some (the owner, or a
/// user the item is shared with already keeps what the owner gave them), and it stops working when the item
/// changes hands or its owner is removed.
///
/// **Revocation.** With a ``store``, every link is recorded there when it is made (a share whose grantee is
/// ``linkGranteePrefix`` and the link's ID), and only a recorded link is redeemed: the owner lists their links with
/// ``links(grantedBy:)`` and revokes one with ``revokeLink(_:)``, and
/// ``revokeShare(itemID:granteeID:grantedBy:in:)`` revokes a share together with every link of the item (and, for a
/// folder, of everything below it), so the person it was revoked from cannot redeem a link again. Without a store, a
/// link is valid until it expires, and rotating the token key is the only way to revoke it.
public struct ShareLinks: Sendable {
    /// The path of the page that redeems links, ending with `/` (for example `/share/`).
    public let pagePath: String
    /// How long a link stays valid.
    public let lifetime: TimeInterval
    /// Where links are recorded, so that they can be listed and revoked; `nil` keeps no record.
    public let store: (any ShareStore)?
    private let signer: AccessTokenSigner

    /// The start of the grantee ID under which ``store`` records a link (a user ID is letters and digits only).
    public static let linkGranteePrefix = "link:"

    /// Creates the links of a host.
    ///
    /// - Parameters:
    ///   - tokenKey: the key of the host's ``AccessTokenSigner``; a separate key is derived from it.
    ///   - pagePath: the path of the page that redeems links, below the host's public URL; the token is appended.
    ///   - store: where links are recorded so they can be listed and revoked (the host's ``ShareStore``); without
    ///     one, links cannot be revoked before they expire.
    ///   - lifetime: how long a link stays valid (default 30 days).
    public init(
        tokenKey: SymmetricKey, store: (any ShareStore)? = nil, pagePath: String = "/share/",
        lifetime: TimeInterval = 30 * 24 * 3600
    ) {
        self.store = store
        signer = AccessTokenSigner(derivingFrom: tokenKey, purpose: "share links v1")
        let path = pagePath.hasPrefix("/") ? pagePath : "/" + pagePath
        self.pagePath = path.hasSuffix("/") ? path : path + "/"
        self.lifetime = lifetime
    }

    /// The link, below `publicURL` (scheme and authority), that gives whoever opens it `type`'s permission on `item`,
    /// on behalf of `grantor`; recorded in ``store``, when there is one.
    public func url(
        for item: StorageItem, type: ShareURLType, grantor: String, publicURL: String, now: Date
    ) async throws -> String {
        try await url(for: item, role: type.permission, grantor: grantor, publicURL: publicURL, now: now)
    }

    /// The link, below `publicURL`, that gives whoever opens it `role` on `item` (a commenter's link, a secure
    /// viewer's), on behalf of `grantor`; recorded in ``store``, when there is one. GetShareUrl's two types are
    /// ``ShareURLType/permission``.
    ///
    /// - Precondition: `role` is above ``Permission/none``.
    public func url(
        for item: StorageItem, role: Permission, grantor: String, publicURL: String, now: Date
    ) async throws -> String {
        precondition(role > .none, "A share link gives a role above none.")
        let resource: AccessToken.Resource =
            switch item {
            case .file(let file): .file(file.id)
            case .container(let container): .container(container.id)
            }
        let claims = AccessToken(
            userID: grantor, resource: resource, expiresAt: now.addingTimeInterval(lifetime),
            permission: role)
        let token = signer.mint(claims)
        try await store?.grant(
            Share(
                itemID: item.id, granteeID: Self.linkGranteePrefix + Self.linkID(ofToken: token),
                permission: role, grantedBy: grantor, grantedAt: now))
        return publicURL.trimmingSuffix("/") + pagePath + token
    }

    /// A link's ID: a digest of its token, so the store never holds a usable link.
    public static func linkID(ofToken token: String) -> String {
        String(Base64URL.encode(Data(SHA256.hash(data: Data(token.utf8)))).prefix(22))
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

    /// A recorded link, as the owner lists it.
    public struct Link: Sendable, Hashable {
        /// The link's ID (``ShareLinks/linkID(ofToken:)``).
        public var id: String
        /// The shared item.
        public var itemID: ItemID
        /// The permission the link gives.
        public var permission: Permission
        /// When it was made.
        public var createdAt: Date
    }

    /// The links `owner` made that are still recorded (expired ones included), oldest first.
    public func links(grantedBy owner: String) async throws -> [Link] {
        guard let store else { return [] }
        return try await store.shares(grantedBy: owner).compactMap { share in
            guard share.granteeID.hasPrefix(Self.linkGranteePrefix) else { return nil }
            return Link(
                id: String(share.granteeID.dropFirst(Self.linkGranteePrefix.count)), itemID: share.itemID,
                permission: share.permission, createdAt: share.grantedAt)
        }
    }

    /// Revokes a link; returns whether it was recorded.
    @discardableResult
    public func revokeLink(_ link: Link) async throws -> Bool {
        try await store?.revoke(itemID: link.itemID, granteeID: Self.linkGranteePrefix + link.id) ?? false
    }

    /// Revokes the share of `itemID` with `granteeID`, and every link `owner` made for the item or, for a folder,
    /// for anything below it in `storage`, so that the grantee cannot take back with a link they hold what the
    /// share gave them. Returns whether there was such a share.
    @discardableResult
    public func revokeShare(
        itemID: ItemID, granteeID: String, grantedBy owner: String, in storage: any StorageBackend
    ) async throws -> Bool {
        for link in try await links(grantedBy: owner) where try await Self.isItem(link.itemID, at: itemID, in: storage)
        {
            try await revokeLink(link)
        }
        return try await store?.revoke(itemID: itemID, granteeID: granteeID) ?? false
    }

    /// Whether `item` is `top` or lies below it; an item that is gone is below nothing.
    private static func isItem(_ item: ItemID, at top: ItemID, in storage: any StorageBackend) async throws -> Bool {
        guard item != top else { return true }
        do {
            return try await storage.ancestors(of: item).contains { $0.id == top }
        } catch let error as StorageError where error.code == .notFound {
            return false
        }
    }

    /// Whether the link of `token` may still be redeemed: recorded in ``store`` (always, without a store).
    func isRecorded(_ token: String, itemID: ItemID) async throws -> Bool {
        guard let store else { return true }
        let grantee = Self.linkGranteePrefix + Self.linkID(ofToken: token)
        return try await store.shares(withGrantee: grantee).contains { $0.itemID == itemID }
    }

    /// Reads the token of a link (the part after ``pagePath``); `nil` when it is not genuine or has expired. It
    /// does not say whether the link was revoked: ``WOPIHost/redeemShareLink(_:for:)`` checks that.
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
