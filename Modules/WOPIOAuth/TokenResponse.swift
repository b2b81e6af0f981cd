import Foundation

/// A successful token endpoint response (RFC 6749 §5.1), parsed tolerantly.
///
/// `expires_in` may be a number or a string (Office's documentation sends `"86400"`); `0` or absent means no
/// known expiry. A missing `token_type` is taken as `Bearer`. Unknown members and `Cache-Control` are ignored.
/// Only `access_token` is required: an optional member of the wrong type or unreadable (`"expires_in": "soon"`,
/// `"scope": ["a"]`) is left out and named in ``ignored``, as if the server had not sent it.
struct TokenResponse: Decodable {
    var accessToken: String
    var tokenType: String?
    var expiresIn: Double?
    var refreshToken: String?
    var scope: String?
    var idToken: String?
    /// The optional members left out because they could not be read, each with the reason, for a warning.
    var ignored: [String] = []

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
        case idToken = "id_token"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        var ignored: [String] = []
        func optionalString(_ key: CodingKeys) -> String? {
            do {
                return try container.decodeIfPresent(String.self, forKey: key)
            } catch {
                ignored.append("\(key.rawValue) is not a string")
                return nil
            }
        }
        tokenType = optionalString(.tokenType)
        refreshToken = optionalString(.refreshToken)
        scope = optionalString(.scope)
        idToken = optionalString(.idToken)
        if let number = try? container.decodeIfPresent(Double.self, forKey: .expiresIn) {
            expiresIn = number
        } else if let text = try? container.decodeIfPresent(String.self, forKey: .expiresIn),
            let number = Double(text.trimmingCharacters(in: .whitespaces))
        {
            expiresIn = number
        } else {
            if container.contains(.expiresIn), (try? container.decodeNil(forKey: .expiresIn)) != true {
                ignored.append("expires_in is not a number of seconds; the expiry is taken as unknown")
            }
            expiresIn = nil
        }
        self.ignored = ignored
    }

    /// The token set this response gives, carrying over what a refresh response may leave out (RFC 6749 §6).
    func tokenSet(issuedAt: Date, previous: TokenSet?, tokenEndpoint: URL?, sessionContext: String?) -> TokenSet {
        let lifetime = expiresIn.flatMap { $0 > 0 ? $0 : nil }
        return TokenSet(
            accessToken: accessToken,
            tokenType: tokenType ?? "Bearer",
            refreshToken: refreshToken ?? previous?.refreshToken,
            expiresAt: lifetime.map { issuedAt.addingTimeInterval($0) },
            scope: scope ?? previous?.scope,
            idToken: idToken ?? previous?.idToken,
            tokenEndpoint: tokenEndpoint,
            sessionContext: sessionContext)
    }
}

/// A token endpoint error response (RFC 6749 §5.2).
struct TokenErrorResponse: Decodable {
    var error: String
    var errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
