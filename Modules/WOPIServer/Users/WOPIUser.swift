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
