import Foundation
import WOPIStorage

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

    /// Creates token claims.
    public init(userID: String, resource: Resource, expiresAt: Date) {
        self.userID = userID
        self.resource = resource
        self.expiresAt = expiresAt
    }
}
