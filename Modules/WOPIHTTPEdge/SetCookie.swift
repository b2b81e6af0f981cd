/// A `Set-Cookie` value, built in one place so every cookie WOPIKit sets follows the same rules.
///
/// ```swift
/// response.headers[.setCookie] = SetCookie(name: "session", value: token, maxAge: 3600, secure: true).headerValue
/// ```
public struct SetCookie: Sendable, Equatable {
    /// `SameSite`: whether a cross-site request carries the cookie.
    public enum SameSite: String, Sendable {
        /// Never sent cross-site.
        case strict = "Strict"
        /// Sent on top-level cross-site navigations (`GET` links), not on cross-site `POST`s or frames.
        case lax = "Lax"
    }

    /// The cookie's name.
    public var name: String
    /// Its value (sent as is: make it a token of unreserved characters).
    public var value: String
    /// Seconds until the browser drops it; `0` deletes it now.
    public var maxAge: Int
    /// Whether it is sent over HTTPS only.
    public var secure: Bool
    /// The `SameSite` rule.
    public var sameSite: SameSite
    /// The path it is sent for.
    public var path: String

    /// A cookie scripts cannot read (`HttpOnly`).
    public init(
        name: String, value: String, maxAge: Int, secure: Bool, sameSite: SameSite = .lax, path: String = "/"
    ) {
        self.name = name
        self.value = value
        self.maxAge = maxAge
        self.secure = secure
        self.sameSite = sameSite
        self.path = path
    }

    /// A cookie that deletes `name` (an empty value that expires now).
    public static func removing(_ name: String, secure: Bool, sameSite: SameSite = .lax) -> SetCookie {
        SetCookie(name: name, value: "", maxAge: 0, secure: secure, sameSite: sameSite)
    }

    /// The `Set-Cookie` header value.
    public var headerValue: String {
        "\(name)=\(value); Path=\(path); HttpOnly; SameSite=\(sameSite.rawValue); Max-Age=\(maxAge)"
            + (secure ? "; Secure" : "")
    }
}
