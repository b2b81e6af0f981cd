public import WOPIStorage

/// A per-user storage quota: a ``ChangeGuard`` that refuses, with `413` and what to do, a save that would take the
/// files of the file's owner past their limit.
///
/// What counts is `StorageUsage.storedBytes(ownedBy:)`: every kept version of the owner's files, a
/// chunk shared by several versions once. The owner pays, whoever saves: an editor of a shared file saves into the
/// owner's storage. A save needs room for its whole declared size (``PutFileDetails/size``), though the chunks it
/// shares with earlier versions are then counted once; a change whose size is not known yet (a new file, a
/// PutRelativeFile) is refused only once the quota is used up, and its content is counted from the next change on.
/// Deleting files or earlier versions frees room at once; versions that retention lets go free it when garbage
/// collection runs.
///
/// ```swift
/// WOPIDeployment(stores: stores, configuration: configuration,
///                changeGuards: [StorageQuota(storage: usage) { user in try await plans.quota(of: user) }])
/// ```
/// `WOPIDeployment.Configuration.storageQuota` registers one with the same limit for every user.
public struct StorageQuota: ChangeGuard {
    /// What counts each user's bytes.
    public let storage: any StorageUsage
    private let limit: @Sendable (_ ownerID: String) async throws -> Int64?

    /// A quota of `limit(ownerID)` bytes for each owner; `nil` for no limit.
    public init(storage: any StorageUsage, limit: @escaping @Sendable (_ ownerID: String) async throws -> Int64?) {
        self.storage = storage
        self.limit = limit
    }

    /// The same quota, `bytesPerUser`, for every owner.
    public init(storage: any StorageUsage, bytesPerUser: Int64) {
        self.init(storage: storage) { _ in bytesPerUser }
    }

    public func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
        let owner: String
        let incoming: Int64?
        switch change {
        case .putFile(let file, let details): (owner, incoming) = (file.ownerID, details.size)
        case .putRelativeFile(let source, _, _): (owner, incoming) = (source.ownerID, nil)
        case .create(_, let container, false): (owner, incoming) = (container.ownerID, nil)
        default: return
        }
        guard let limit = try await limit(owner) else { return }
        let used = try await storage.storedBytes(ownedBy: owner)
        let passes = incoming.map { used + $0 > limit } ?? (used >= limit)
        guard passes else { return }
        let whose = owner == user.id ? "Your files" : "The files of \(owner), the file's owner,"
        let adding = incoming.map { " and this save of \(Self.describe($0)) would pass it" } ?? ""
        throw ContentVeto.tooLarge(
            "\(whose) take \(Self.describe(used)) of a \(Self.describe(limit)) quota\(adding). Delete files or "
                + "earlier versions (the file's versions view), or ask for a larger quota.")
    }

    /// `bytes` as people read it: `1.5 MiB`, `812 bytes`.
    static func describe(_ bytes: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
