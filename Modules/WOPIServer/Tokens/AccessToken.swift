public import Foundation
public import WOPIStorage

/// What a WOPI access token grants: one user, one resource, until a time.
public struct AccessToken: Sendable, Hashable {
    /// The resource a token is for.
    public enum Resource: Sendable, Hashable {
        /// A file: every file operation on it.
        case file(ItemID)
        /// A container: the container operations on it.
        case container(ItemID)
        /// The user's ecosystem endpoint.
        case ecosystem
    }

    /// The user the token acts for.
    public var userID: String
    /// The resource it covers.
    public var resource: Resource
    /// When it stops being valid.
    public var expiresAt: Date
    /// The most the token allows: ``Permission/view`` makes it a read-only link whoever holds it. A request gets
    /// the lesser of this and what the host's ``AccessPolicy`` grants the user at that moment.
    public var permission: Permission
    /// The user's ``WOPIUser/credentialStamp`` when the token was minted: a request is refused once the user's
    /// password changed. `nil` (not checked) in tokens minted without one, and in those minted before stamps
    /// existed (versions 1 and 2).
    public var credentialStamp: String?

    /// Creates token claims; `credentialStamp` is the user's ``WOPIUser/credentialStamp`` (mint with
    /// ``init(user:resource:expiresAt:permission:)`` to take it from the user, as the host does).
    public init(
        userID: String, resource: Resource, expiresAt: Date, permission: Permission = .edit,
        credentialStamp: String? = nil
    ) {
        self.userID = userID
        self.resource = resource
        self.expiresAt = expiresAt
        self.permission = permission
        self.credentialStamp = credentialStamp
    }

    /// Claims for `user`, stamped with the user's ``WOPIUser/credentialStamp``.
    public init(user: WOPIUser, resource: Resource, expiresAt: Date, permission: Permission = .edit) {
        self.init(
            userID: user.id, resource: resource, expiresAt: expiresAt, permission: permission,
            credentialStamp: user.credentialStamp)
    }

    /// Whether the token was minted for `user` as the user is now: its stamp, when it has one, is the user's.
    public func isCurrent(for user: WOPIUser) -> Bool {
        user.isCurrent(credentialStamp: credentialStamp)
    }
}

extension AccessToken.Resource {
    /// Appends the resource to `bytes` as `file`, `container` or `ecosystem` (by its kind) followed by its item's ID:
    /// the shape of a token's resource claim (`f:ID`) and of a WOPI URL's path (`/files/ID`).
    func append(to bytes: inout [UInt8], file: StaticString, container: StaticString, ecosystem: StaticString) {
        switch self {
        case .file(let id):
            file.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: id.rawValue.utf8)
        case .container(let id):
            container.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: id.rawValue.utf8)
        case .ecosystem:
            ecosystem.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
    }
}
