import ArgumentParser
import Foundation
import WOPIDeployment
import WOPIServer
import WOPIStorage

/// `wopi-host share --user OWNER PATH --with GRANTEE [--role ROLE | --view]`: shares a file or folder.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a file or folder of --user with another user, as editor or in the role --role names.",
        discussion: """
            A shared folder covers everything below it. Sharing again changes the role. A commenter, reviewer or \
            secure viewer is kept to the role by the editor, so they get it only where serve checks the editor's \
            proof keys (--discovery-url or --discovery-file); elsewhere they read, or for a secure viewer, see \
            nothing of the content outside the editor.
            """)

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The owner of the item.") var user: String
    @Argument(help: "The item's path below the owner's root, e.g. Projects or Projects/Plan.docx.") var path: String
    @Option(name: .long, help: "The user to share with.") var with: String
    @Option(name: .long, help: "viewer, secure-viewer, commenter, reviewer or editor (the default).")
    var role: String?
    @Flag(name: .long, help: "Share read-only: --role viewer.") var view = false

    func validate() throws {
        if view, role != nil { throw ValidationError("Give --role or --view, not both.") }
        if let role, Self.role(named: role) == nil {
            throw ValidationError("--role must be viewer, secure-viewer, commenter, reviewer or editor, not \(role).")
        }
    }

    /// The role given, `edit` by default.
    private var permission: Permission { view ? .view : role.flatMap(Self.role(named:)) ?? .edit }

    /// The role `name` names; `nil` for anything else, `none` included (unshare ends a share).
    private static func role(named name: String) -> Permission? {
        Permission(named: name).flatMap { $0 > .none ? $0 : nil }
    }

    func run() async throws {
        let directory = try await data.open()
        let stores = try await directory.stores()
        let item = try await OwnedItem.shareable(path, of: user, in: stores, directory)
        guard try await stores.users.user(with) != nil else { throw ValidationFailure("No user \(with).") }
        guard with != user else { throw ValidationFailure("\(user) owns \(path) already.") }
        try await stores.shares.grant(
            Share(itemID: item.id, granteeID: with, permission: permission, grantedBy: user, grantedAt: Date()))
        try await stores.audit?.record(
            AuditEvent(
                .share, at: Date(), userID: user, itemID: item.id.rawValue,
                details: ["with": with, "permission": "\(permission)"]))
        Console.line("\(path) is shared with \(with) (\(permission)).")
    }
}

/// `wopi-host unshare --user OWNER PATH --with GRANTEE | --link ID`: ends a share, at once, for tokens minted
/// before too, and revokes the item's share links (so the grantee cannot redeem one again); or revokes one link.
struct UnshareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unshare",
        abstract: "Stop sharing a file or folder of --user with another user, or revoke one of its share links.",
        discussion: "Stopping a share revokes every share link of the item too; `shares` lists the links.")

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The owner of the item.") var user: String
    @Argument(help: "The item's path below the owner's root.") var path: String
    @Option(name: .long, help: "The user to stop sharing with.") var with: String?
    // A link ID is base64url, so it may begin with "-": the value is taken whatever it looks like.
    @Option(name: .long, parsing: .unconditional, help: "The ID of a share link to revoke (as `shares` lists it).")
    var link: String?

    func validate() throws {
        guard (with == nil) != (link == nil) else { throw ValidationError("Give --with USER or --link ID.") }
    }

    func run() async throws {
        let directory = try await data.open()
        let stores = try await directory.stores()
        let item = try await OwnedItem.shareable(path, of: user, in: stores, directory)
        let links = try await stores.shareLinks()
        if let link {
            guard
                let found = try await links.links(grantedBy: user).first(where: {
                    $0.id == link && $0.itemID == item.id
                }),
                try await links.revokeLink(found)
            else { throw ValidationFailure("\(path) has no share link \(link).") }
            try await stores.audit?.record(
                AuditEvent(.unshare, at: Date(), userID: user, itemID: item.id.rawValue, details: ["link": link]))
            Console.line("The share link \(link) of \(path) is revoked.")
        } else if let with {
            guard
                try await links.revokeShare(
                    itemID: item.id, granteeID: with, grantedBy: user, in: stores.storage)
            else {
                throw ValidationFailure("\(path) is not shared with \(with).")
            }
            try await stores.audit?.record(
                AuditEvent(.unshare, at: Date(), userID: user, itemID: item.id.rawValue, details: ["with": with]))
            Console.line("\(path) is no longer shared with \(with); its share links are revoked.")
        }
    }
}

/// `wopi-host shares --user NAME`: the shares in both directions.
struct SharesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shares", abstract: "List what --user shares with others, and what others share with them.")

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The user.") var user: String

    func run() async throws {
        let stores = try await data.open().stores()
        guard try await stores.users.user(user) != nil else { throw ValidationFailure("No user \(user).") }
        let byUser = try await stores.shares.shares(grantedBy: user)
        let withUser = try await stores.shares.shares(withGrantee: user)
        Console.line("Shared by \(user):" + (byUser.isEmpty ? " nothing" : ""))
        for share in byUser {
            let path = try await OwnedItem.path(of: share.itemID, in: stores) ?? "(deleted item \(share.itemID))"
            let grantee = share.granteeID
            let with =
                grantee.hasPrefix(ShareLinks.linkGranteePrefix)
                ? "link \(grantee.dropFirst(ShareLinks.linkGranteePrefix.count))" : "with \(grantee)"
            Console.line("  \(path)  \(with)  \(share.permission)")
        }
        Console.line("Shared with \(user):" + (withUser.isEmpty ? " nothing" : ""))
        for share in withUser {
            let name = (try? await stores.storage.item(share.itemID).name) ?? "(deleted item \(share.itemID))"
            Console.line("  \(SharedWithMe.name)/\(name)  by \(share.grantedBy)  \(share.permission)")
        }
    }
}

/// Finding a user's own items by path, and the path of an item.
enum OwnedItem {
    /// The item at `path` below `user`'s root (not the root itself).
    static func resolve(_ path: String, of user: String, in stores: DeploymentStores) async throws -> StorageItem {
        guard try await stores.users.user(user) != nil else { throw ValidationFailure("No user \(user).") }
        let root = try await stores.storage.rootContainer(forUser: user)
        guard !path.split(separator: "/").isEmpty,
            let item = try? await stores.storage.item(atPath: path, under: root.id)
        else { throw ValidationFailure("\(user) has no file or folder \(path).") }
        return item
    }

    /// The item at `path` below `user`'s root, which the door lets `user` share (``ItemAction/share``, as for
    /// GetShareUrl): the policy of `serve` decides for `share` and `unshare` too.
    static func shareable(_ path: String, of user: String, in stores: DeploymentStores, _ directory: DataDirectory)
        async throws -> StorageItem
    {
        let item = try await resolve(path, of: user, in: stores)
        guard let owner = try await stores.users.user(user) else { throw ValidationFailure("No user \(user).") }
        try await ExampleDecisions.host(stores, directory).authorize(.share, on: item, by: owner)
        return item
    }

    /// The path of an item below its owner's root, or `nil` when it no longer exists.
    static func path(of id: ItemID, in stores: DeploymentStores) async throws -> String? {
        try await ownerAndPath(of: id, in: stores)?.path
    }

    /// The owner of item `id` and its path below the owner's root; `nil` when it is gone.
    static func ownerAndPath(of id: ItemID, in stores: DeploymentStores) async throws -> (owner: String, path: String)?
    {
        guard let item = try? await stores.storage.item(id) else { return nil }
        let folders = try await stores.storage.ancestors(of: id).dropFirst().map(\.name)
        return (item.ownerID, (folders + [item.name]).joined(separator: "/"))
    }
}
