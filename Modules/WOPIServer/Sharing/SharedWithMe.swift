import WOPIHTTPEdge
import WOPIModels
public import WOPIStorage

/// Each user's "Shared with me" container: the items of other users shared with them, listed in their root the
/// way Office for iOS and Android browse (GetRootContainer, then EnumerateChildren).
///
/// It is not stored anywhere. The host reserves the container ID ``id`` for it (a backend's IDs never take that
/// value: WOPIKit's backends make 26-character random IDs), fills it from ``AccessPolicy/sharedItems(with:)``, and
/// shows it in a user's root only while something is shared with them. Nothing can be created, renamed or deleted
/// in it; the shared items themselves follow the policy.
public enum SharedWithMe {
    /// The container ID of every user's "Shared with me" (the token names the user).
    public static let id = ItemID(rawValue: "shared-with-me")!
    /// The name it is listed under.
    public static let name = "Shared with me"

    /// Its CheckContainerInfo: nothing can be created, renamed or deleted in it.
    static var containerInfo: CheckContainerInfo {
        var info = CheckContainerInfo(name: name)
        info.userCanCreateChildContainer = false
        info.userCanCreateChildFile = false
        info.userCanDelete = false
        info.userCanRename = false
        info.isAnonymousUser = false
        return info
    }

    /// Resolves `path` for `user` when it starts with `Shared with me/`: the shared item named by the next component,
    /// then the rest of the path below it. `nil` for any other path, or when nothing matches.
    public static func item(
        atPath path: String, for user: WOPIUser, policy: any AccessPolicy, storage: any StorageBackend
    ) async throws -> StorageItem? {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard components.count >= 2, components.removeFirst() == name else { return nil }
        let top = components.removeFirst()
        guard let shared = try await policy.sharedItems(with: user).first(where: { $0.name == top }) else {
            return nil
        }
        if components.isEmpty { return shared }
        guard case .container(let container) = shared else { return nil }
        return try? await storage.item(atPath: components.joined(separator: "/"), under: container.id)
    }
}

extension WOPIHost {
    /// The "Shared with me" entry of a listing, with a token for it.
    func sharedWithMeEntry(context: RequestContext) -> NamedURL {
        NamedURL(
            name: SharedWithMe.name,
            url: context.withToken(
                context.containerSrc(SharedWithMe.id), for: .container(SharedWithMe.id), signer: tokens))
    }
}
