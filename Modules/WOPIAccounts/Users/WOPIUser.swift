import Crypto
import WOPIModels

/// A user of the host.
public struct WOPIUser: Sendable, Hashable, Codable {
    /// The stable ID: ASCII letters and digits only (Office requires alphanumeric user IDs, Docs/wopi-protocol.md
    /// §6.1).
    public var id: String
    /// What tells the user's accounts apart in Office, often an email address.
    public var signInName: String
    /// The display name.
    public var displayName: String
    /// The password hash from ``PasswordHasher``, `nil` for a user who cannot sign in with a password.
    public var passwordHash: String?
    /// The string last stored by PutUserInfo.
    public var userInfo: String?

    /// Creates a user.
    public init(id: String, signInName: String, displayName: String, passwordHash: String?, userInfo: String? = nil) {
        self.id = id
        self.signInName = signInName
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.userInfo = userInfo
    }

    /// What every credential issued to the user carries and is checked against: the WOPI access tokens, the host
    /// pages' session cookies, and the OAuth authorization server's codes and tokens. It is derived from
    /// ``passwordHash`` (12 characters of a SHA-256 of it; empty without a password), so setting a new password
    /// (`wopi-host user passwd`) changes it, and every credential issued before is refused on every host that shares
    /// the user directory, with nothing to record or clean up.
    public var credentialStamp: String {
        guard let passwordHash else { return "" }
        let digest = SHA256.hash(data: Array(("wopikit.credential-stamp|" + passwordHash).utf8))
        return Base64URL.encode(Array(digest.prefix(9)))
    }

    /// Whether a credential with `stamp` was issued to the user as the user is now; `nil` (a credential minted
    /// without a stamp) is not checked.
    public func isCurrent(credentialStamp stamp: String?) -> Bool {
        stamp.map { $0 == credentialStamp } ?? true
    }

    /// The form in which sign-in names are compared: `signInName` lower-cased (Unicode), so `Ana@Example.com` and
    /// `ana@example.com` name the same account. A ``UserDirectory`` indexes users by it.
    public static func signInKey(_ signInName: String) -> String {
        signInName.lowercased()
    }

    /// Whether `id` is a valid user ID (1 to 64 ASCII letters and digits).
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
