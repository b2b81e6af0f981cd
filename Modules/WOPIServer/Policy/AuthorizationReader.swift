public import WOPIStorage

/// Reads, in one database round trip, what ``WOPIHost`` needs to authorize a request for an item: the token's user,
/// the item, and the permissions that user's shares give on the item and on each container above it.
///
/// The host reads them one by one without it: the user from its ``UserDirectory``, the item from its
/// `StorageBackend`, then whatever its ``AccessPolicy`` reads. When the stores share one database across the
/// network (PostgreSQL), each read is a round trip; a reader answers all three in one statement. Set one in
/// ``WOPIHostConfiguration/authorizationReader`` only when it reads the host's own users, items and shares: the
/// host trusts its answer as it would trust the reads it replaces: give a reader the database the storage, the users
/// and the shares of every host live in, as it reads their tables, not the stores. `WOPIDeployment` sets
/// `SQLiteAuthorizationReader` or `PostgresAuthorizationReader` when its storage, users and shares share one
/// database.
///
/// The shares serve a policy that decides from them (``AccessPolicy/access(of:to:sharesOnPath:)``, as
/// ``SharingAccessPolicy`` does); any other policy is asked `access(of:to:)` for the one item, as usual.
public protocol AuthorizationReader: Sendable {
    /// The user `userID`, the item `item`, and what the user's shares give on the item and above it, read together.
    func read(user userID: String, item: ItemID) async throws -> AuthorizationRead
}

/// What an ``AuthorizationReader`` read for one request.
public struct AuthorizationRead: Sendable {
    /// The token's user, `nil` when there is no such user (the host answers 401).
    public var user: WOPIUser?
    /// The item, `nil` when there is no such item (the host answers 404).
    public var item: StorageItem?
    /// The widest permission the user's shares give on the item and on each container above it, by item: only
    /// items that have a share with the user appear. Empty when the user owns the item (shares do not matter then)
    /// or has no share on its path.
    public var sharesOnPath: [ItemID: Permission]

    /// What a reader read.
    public init(user: WOPIUser?, item: StorageItem?, sharesOnPath: [ItemID: Permission]) {
        self.user = user
        self.item = item
        self.sharesOnPath = sharesOnPath
    }
}

extension AuthorizationRead {
    /// The widest permission among `shares` for each item: the rows of a reader's statement, an item's ID and a
    /// permission's raw value each. A row that is neither is skipped, as the share stores skip a row they cannot read.
    package static func widest(_ shares: some Sequence<(item: String, permission: Int)>) -> [ItemID: Permission] {
        var widest: [ItemID: Permission] = [:]
        for (item, value) in shares {
            guard let id = ItemID(rawValue: item), let permission = Permission(rawValue: value) else { continue }
            widest[id] = max(widest[id] ?? .none, permission)
        }
        return widest
    }
}
