public import Foundation
import WOPIModels
import WOPIOAuthCore

/// An access or refresh token, or a host-page session, as stored: its SHA-256 hash, never the token itself.
public struct OAuthTokenRecord: Sendable, Hashable, Codable {
    /// What the token is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A bearer access token for the bootstrapper.
        case access
        /// A refresh token, single use: each use returns a new one (rotation).
        case refresh
        /// A sign-in session of the host pages (`HostSessions` of `WOPIDeployment`): the browser's cookie, never
        /// accepted as an access token; signing out deletes it.
        case session
    }

    /// The hex SHA-256 of the token (``OAuthTokenHash/hash(_:)``).
    public var hash: String
    /// Access or refresh.
    public var kind: Kind
    /// The client it was issued to.
    public var clientID: String
    /// The user it acts for.
    public var userID: String
    /// The granted scope (space-separated).
    public var scope: String
    /// The family: every token descended from one authorization code. Revoking the family revokes them all.
    public var familyID: String
    /// When it stops being valid.
    public var expiresAt: Date
    /// For a refresh token: whether it was used (rotated) already; a second use revokes the family.
    public var isUsed: Bool

    /// The user's credential stamp (`WOPIUser.credentialStamp`) when they signed in: refused once the user's
    /// password changed. `nil` in records saved before stamps existed, which are not checked.
    public var credentialStamp: String?

    /// Creates a record.
    public init(
        hash: String, kind: Kind, clientID: String, userID: String, scope: String, familyID: String, expiresAt: Date,
        isUsed: Bool = false, credentialStamp: String? = nil
    ) {
        self.credentialStamp = credentialStamp
        self.hash = hash
        self.kind = kind
        self.clientID = clientID
        self.userID = userID
        self.scope = scope
        self.familyID = familyID
        self.expiresAt = expiresAt
        self.isUsed = isUsed
    }
}
