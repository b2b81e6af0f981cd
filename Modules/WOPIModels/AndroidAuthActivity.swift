/// One Android entry of `UrlSchemes`: the activity Office starts for app-to-app sign-in (Docs/wopi-protocol.md §9.2,
/// §10.5).
///
/// On the wire it is a triple of strings, `VersionCode, PackageName, AuthActivityName`, inside the flat
/// `"Android"` list.
public struct AndroidAuthActivity: Sendable, Hashable {
    /// The lowest installed version code of your app that supports app-to-app sign-in.
    public var minimumVersionCode: Int
    /// The application ID, for example `com.contoso.app`.
    public var packageName: String
    /// The fully qualified activity class, for example `com.contoso.app.AuthActivity`.
    public var authActivityName: String

    /// Creates an entry.
    public init(minimumVersionCode: Int, packageName: String, authActivityName: String) {
        self.minimumVersionCode = minimumVersionCode
        self.packageName = packageName
        self.authActivityName = authActivityName
    }
}
