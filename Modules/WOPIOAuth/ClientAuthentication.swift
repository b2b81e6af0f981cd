import Foundation
import WOPIModels

/// How the client authenticates to the token endpoint (RFC 6749 §2.3).
///
/// Native apps are public clients (RFC 8252 §8.4) and use ``none``; a confidential client, such as a server-side
/// gateway, uses a secret.
public enum ClientAuthentication: Sendable, Hashable {
    /// A public client: only `client_id` is sent in the form body.
    case none
    /// HTTP Basic with the form-encoded client ID and secret (`client_secret_basic`, RFC 6749 §2.3.1).
    case clientSecretBasic(secret: String)
    /// `client_id` and `client_secret` in the form body (`client_secret_post`).
    case clientSecretPost(secret: String)

    /// The RFC 8414 `token_endpoint_auth_methods_supported` name of this method.
    public var methodName: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        }
    }

    /// Adds this authentication to a token request's form parameters and headers.
    func apply(clientID: String, form: inout [(String, String)], headers: inout [String: String]) {
        switch self {
        case .none:
            form.append(("client_id", clientID))
        case .clientSecretBasic(let secret):
            let credentials = "\(PercentEncoding.encode(clientID)):\(PercentEncoding.encode(secret))"
            headers["Authorization"] = "Basic \(Data(credentials.utf8).base64EncodedString())"
        case .clientSecretPost(let secret):
            form.append(("client_id", clientID))
            form.append(("client_secret", secret))
        }
    }
}

extension ClientAuthentication: CustomStringConvertible {
    /// Names the method only; the secret is never shown.
    public var description: String { methodName }
}
