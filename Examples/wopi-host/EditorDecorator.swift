import Foundation
import Synchronization
import WOPIModels
import WOPIServer
import WOPIStorage

/// What the example host adds to CheckFileInfo: the properties Collabora Online and ONLYOFFICE read, per user and
/// item (Docs/office-for-the-web.md has the table of what each editor does with them). Office for the web ignores
/// what it does not know.
///
/// - Everyone: `UserExtraInfo` (`mail`, and an `avatar` drawn from the initials, so co-editors tell each other
///   apart), `IsAdminUser` (the users of `--admin`) and `IsUserLocked: false`.
/// - The owner: `EnableOwnerTermination` (end the session for everyone) and `EnableShare` (the share command, which
///   posts `UI_Share` to the host page).
///
/// What the user's role sends (write, comment and review modes, a secure view's watermark) is the host's own
/// (Docs/policies-and-sharing.md): a decorator adds to it.
struct EditorDecorator: InfoDecorator {
    /// The IDs or sign-in names of the users who administer the host.
    let admins: Set<String>
    /// The avatars drawn so far: every CheckFileInfo needs its user's, and drawing one costs more than the rest of
    /// this decorator together.
    private let avatars = Avatars()

    init(admins: Set<String>) { self.admins = admins }

    func decorate(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) {
        var extra = ["avatar": avatars.avatar(for: user.displayName)]
        if user.signInName.contains("@" as Character) { extra["mail"] = user.signInName }
        info.userExtraInfo = extra
        info.isAdminUser = admins.contains(user.id) || admins.contains(user.signInName)
        info.isUserLocked = false
        info.enableOwnerTermination = access.isOwner
        info.enableShare = access.isOwner
    }

    /// A round SVG badge with up to two initials of `name`, as a `data:` URL (no avatar store needed).
    static func avatar(for name: String) -> String {
        let initials = name.split(separator: " ").prefix(2).compactMap(\.first).map { String($0).uppercased() }
            .joined()
        let escaped =
            initials.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil }
            ? initials : "?"
        let hue = name.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) % 360 }
        let svg =
            "<svg xmlns='http://www.w3.org/2000/svg' width='64' height='64'><circle cx='32' cy='32' r='32' "
            + "fill='hsl(\(hue),45%,45%)'/><text x='32' y='41' font-family='sans-serif' font-size='26' "
            + "text-anchor='middle' fill='white'>\(escaped)</text></svg>"
        return "data:image/svg+xml;base64," + Data(svg.utf8).base64EncodedString()
    }

    /// The avatars of the display names seen, up to 4,096 names (then it starts again), so a host with many users
    /// keeps a bounded set.
    private final class Avatars: Sendable {
        private let drawn = Mutex<[String: String]>([:])

        func avatar(for name: String) -> String {
            if let avatar = drawn.withLock({ $0[name] }) { return avatar }
            let avatar = EditorDecorator.avatar(for: name)
            drawn.withLock { drawn in
                if drawn.count >= 4_096 { drawn.removeAll(keepingCapacity: true) }
                drawn[name] = avatar
            }
            return avatar
        }
    }
}
