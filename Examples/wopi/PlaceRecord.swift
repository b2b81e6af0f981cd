import Foundation

/// A place `wopi login` remembered: the host's bootstrapper, its OAuth endpoints and who signed in.
struct PlaceRecord: Codable, Sendable {
    /// The name the place is known by (`--place NAME`).
    var name: String
    /// The host's bootstrapper URL.
    var bootstrapperURL: URL
    /// The OAuth client ID used to sign in.
    var clientID: String
    /// The scopes asked for (empty: the server's default).
    var scopes: [String]
    /// The authorization endpoint of the bootstrapper's challenge.
    var authorizationEndpoint: URL
    /// The token endpoint (the challenge's, or the `tk` the sign-in returned).
    var tokenEndpoint: URL
    /// The provider ID of the challenge, if any (used as the service ID of Office URLs).
    var providerID: String?
    /// The signed-in user's ID (Bootstrap `UserId`).
    var userID: String
    /// The sign-in name (Bootstrap `SignInName`).
    var signInName: String
    /// The display name, if any.
    var userFriendlyName: String?

    /// The service ID for Office URLs: the provider ID, or the host name.
    var serviceID: String { providerID ?? bootstrapperURL.host ?? name }
}
