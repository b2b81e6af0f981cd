import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
public import WOPIStorage

/// The one door: every entry point (each WOPI operation, FileUrl, templates, the bootstrapper and ecosystem, the host
/// pages, the command line) asks here whether a user may do something with an item, and a change passes the
/// ``ChangeGuard``s here too. Nothing else asks ``policy`` or the guards.
extension WOPIHost {
    /// What `user` may do with `item`, as ``policy`` decides (``ItemAccess/none`` when they may not see it).
    public func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
        try await policy.access(of: user, to: item)
    }

    /// What `user` may do with each of `items`, in order, as ``policy`` decides in one call.
    public func access(of user: WOPIUser, to items: [StorageItem]) async throws -> [ItemAccess] {
        try await policy.access(of: user, to: items)
    }

    /// Decides whether `user` may do `action` with `item`, and returns what they may do with it.
    ///
    /// For a change, use ``authorize(_:by:access:)``, which also asks the ``ChangeGuard``s.
    ///
    /// - Throws: ``StorageError/Code/notFound`` (404, as for an item that does not exist) when the user may not see
    ///   the item; `401` when they may see it but not do `action`.
    @discardableResult
    public func authorize(_ action: ItemAction, on item: StorageItem, by user: WOPIUser) async throws -> ItemAccess {
        let access = try await policy.access(of: user, to: item)
        try Self.require(action, on: item.id, of: access)
        return access
    }

    /// Decides whether `user` may make `change`: their access to the change's ``ContentChange/subject`` must allow
    /// its ``ContentChange/action``, then each ``ChangeGuard`` sees it, in order.
    ///
    /// - Parameter access: what the user may do with the subject, when the caller already asked (a WOPI request
    ///   asks once, limited by its token); `nil` asks ``policy``.
    /// - Throws: 404 when the user may not see the subject, `401` when their access does not allow the change, and
    ///   the first guard's ``ContentVeto``.
    public func authorize(_ change: ContentChange, by user: WOPIUser, access: ItemAccess? = nil) async throws {
        let subject = change.subject
        let decided: ItemAccess
        if let access { decided = access } else { decided = try await policy.access(of: user, to: subject) }
        try Self.require(change.action, on: subject.id, of: decided)
        for changeGuard in changeGuards { try await changeGuard.willChange(change, by: user) }
    }

    /// The item `id` and what `user` may do with it, when they may see it.
    ///
    /// - Throws: ``StorageError/Code/notFound`` when there is no such item or the user may not see it: the two
    ///   answers are the same, so no one learns that an item they may not see exists.
    public func item(_ id: ItemID, visibleTo user: WOPIUser) async throws -> (item: StorageItem, access: ItemAccess) {
        let item = try await storage.item(id)
        return (item, try await authorize(.see, on: item, by: user))
    }

    /// The item `id` and what `user` may do with it, when they may read its content (``ItemAction/read``).
    ///
    /// - Throws: ``StorageError/Code/notFound`` as ``item(_:visibleTo:)`` does; `401` when the user sees the item but
    ///   may not read it outside the editor (a secure viewer).
    public func item(_ id: ItemID, readableBy user: WOPIUser) async throws -> (item: StorageItem, access: ItemAccess) {
        let item = try await storage.item(id)
        return (item, try await authorize(.read, on: item, by: user))
    }

    /// The door for a WOPI operation, after its token was verified and its item read: `nil` when the request's
    /// access allows the operation's ``WOPIOperation/requirement``; the answer to a view-only lock change that
    /// ``WOPIHostConfiguration/viewOnlyLocks`` acknowledges (200, nothing locked); 401 otherwise. WOPI has no
    /// status for "read-only"; Microsoft's sample host answers an invalid token, and clients that read
    /// `UserCanWrite: false` never try.
    func admit(_ operation: WOPIOperation, context: RequestContext) throws -> WOPIResponse? {
        let needed = operation.requirement
        guard !context.access.allows(needed) else { return nil }
        if operation.isLockChange, configuration.viewOnlyLocks == .acknowledge { return WOPIResponse(status: .ok) }
        throw WOPIHTTPError.unauthorized(
            "The access token does not allow \(needed) (permission: \(context.access.permission)).")
    }

    /// Answers 404 when `access` does not see the item, 401 when it does not allow `action`.
    static func require(_ action: ItemAction, on id: ItemID, of access: ItemAccess) throws {
        guard access.permission > .none else { throw StorageError.notFound(id) }
        guard access.allows(action) else {
            throw WOPIHTTPError.unauthorized(
                "The user's access does not allow \(action) (permission: \(access.permission)).")
        }
    }

    /// Lets each ``InfoDecorator`` adjust `info`, in order.
    func decorate(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) async throws {
        for decorator in decorators { try await decorator.decorate(file: file, &info, user: user, access: access) }
    }

    /// Lets each ``InfoDecorator`` adjust `info`, in order.
    func decorate(
        container: ContainerMetadata, _ info: inout CheckContainerInfo, user: WOPIUser, access: ItemAccess
    ) async throws {
        for decorator in decorators {
            try await decorator.decorate(container: container, &info, user: user, access: access)
        }
    }

    /// Lets each ``InfoDecorator`` adjust `info`, in order.
    func decorate(ecosystem info: inout CheckEcosystemResponse, user: WOPIUser) async throws {
        for decorator in decorators { try await decorator.decorate(ecosystem: &info, user: user) }
    }
}
