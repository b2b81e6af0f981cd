public import Foundation
import WOPIModels
import WOPIOAuthCore

/// An authorization code as stored: its SHA-256 hash, never the code itself.
public struct OAuthCodeRecord: Sendable, Hashable, Codable {
    /// The hex SHA-256 of the code (``OAuthTokenHash/hash(_:)``).
    public var hash: String
    /// The client it was issued to.
    public var clientID: String
    /// The user who signed in.
    public var userID: String
    /// The granted scope (space-separated), empty for none.
    public var scope: String
    /// The `redirect_uri` of the authorization request, `nil` when the request left it out; the token request
    /// must repeat it exactly (RFC 6749 §4.1.3).
    public var redirectURI: String?
    /// The PKCE S256 `code_challenge`, `nil` when the client sent none.
    public var codeChallenge: String?
    /// The token family that the code's tokens join; a replayed code revokes this family.
    public var familyID: String
    /// When the code stops being redeemable.
    public var expiresAt: Date
    /// Whether it was redeemed already (kept until expiry to detect a replay).
    public var isRedeemed: Bool

    /// The user's credential stamp (`WOPIUser.credentialStamp`) when they signed in: refused once the user's
    /// password changed. `nil` in records saved before stamps existed, which are not checked.
    public var credentialStamp: String?

    /// Creates a record.
    public init(
        hash: String, clientID: String, userID: String, scope: String, redirectURI: String?, codeChallenge: String?,
        familyID: String, expiresAt: Date, isRedeemed: Bool = false, credentialStamp: String? = nil
    ) {
        self.credentialStamp = credentialStamp
        self.hash = hash
        self.clientID = clientID
        self.userID = userID
        self.scope = scope
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.familyID = familyID
        self.expiresAt = expiresAt
        self.isRedeemed = isRedeemed
    }
}
