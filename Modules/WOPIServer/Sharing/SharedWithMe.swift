import WOPIModels
import WOPIStorage

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
    /// The operations on "Shared with me": CheckContainerInfo, EnumerateChildren, EnumerateAncestors (the user's
    /// root) and GetEcosystem; every change is refused with 401.
    func handleSharedWithMe(
        _ endpoint: WOPIRoute.ContainerEndpoint, override: String?, request: WOPIRequest, context: RequestContext
    ) async throws -> WOPIResponse {
        switch (endpoint, request.method, override) {
        case (.info, .get, _):
            var info = CheckContainerInfo(name: SharedWithMe.name)
            info.userCanCreateChildContainer = false
            info.userCanCreateChildFile = false
            info.userCanDelete = false
            info.userCanRename = false
            info.isAnonymousUser = false
            return try .json(info)
        case (.info, .post, _?):
            throw WOPIHTTPError.unauthorized(
                "\(SharedWithMe.name) lists other people's items: nothing can be created, renamed or deleted in it.")
        case (.children, .get, _):
            let items = try await policy.sharedItems(with: context.user)
            return try .json(childrenResponse(items, request: request, context: context))
        case (.ancestry, .get, _):
            let root = try await storage.rootContainer(forUser: context.user.id)
            return try .json(AncestorsResponse(ancestorsWithRootFirst: [namedURL(root, context: context)]))
        case (.ecosystemPointer, .get, _):
            return try .json(URLResponse(url: context.withToken(context.ecosystemSrc, for: .ecosystem, signer: tokens)))
        default:
            throw unsupported(override, on: "containers/\(endpoint.rawValue)")
        }
    }

    /// The "Shared with me" entry of a listing, with a token for it.
    func sharedWithMeEntry(context: RequestContext) -> NamedURL {
        NamedURL(
            name: SharedWithMe.name,
            url: context.withToken(
                context.containerSrc(SharedWithMe.id), for: .container(SharedWithMe.id), signer: tokens))
    }
}
