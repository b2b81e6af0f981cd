import Foundation
public import Logging
import WOPIModels
public import WOPIStorage

/// A remote WOPI provider seen as a ``StorageBackend``: what lets the FUSE mount (and anything else written
/// against the storage abstraction) work on files that live on another WOPI host.
///
/// **IDs.** An item's ``ItemID`` is the remote file or container ID, taken from the last path segment of the
/// WOPI URL the host returned (`…/wopi/files/{id}`), so it is stable across renames as WOPI requires. The host's
/// IDs must therefore fit ``ItemID`` (ASCII letters, digits, `-`, `_`, at most 128 characters); an ID that does
/// not is reported as ``StorageError/Code/corrupt``.
///
/// **Tokens.** WOPI needs a token per item. The storage learns each item's URL and token while browsing (root,
/// children, creations) and keeps the map ID → URL-with-token; an item it has never seen listed is
/// ``StorageError/Code/notFound`` to it. Expired tokens are renewed by the ``WOPIClient`` through
/// GetNewAccessToken when it has a bootstrapper and a token provider.
///
/// **Roots.** `rootContainer(forUser:)` asks the `roots` closure (once per user) for a remote container and
/// presents it as that user's root: it has no parent here, ancestors stop at it, and every item below it is
/// owned by that user. The usual closure returns the signed-in user's root from the bootstrapper (see
/// ``init(client:place:)``); tests root each user in a fresh remote sub-folder.
///
/// **What WOPI cannot do, and how it is handled.**
/// - Names: names no WOPI host takes (``FileNameRules/default``: control characters, `\ / " * : < > ? |`,
///   Windows device names, leading or trailing white space) and names the host's own rules refuse fail with
///   ``StorageError/Code/invalidName``. Dot names and `# % [ ] { } ^` are fine with a host on the default rules.
/// - Writes lock the file (Lock, PutFile, Unlock) unless ``locks`` holds a lock on it, which is then used. A file
///   locked by another client fails with ``StorageError/Code/io``. Writes to one file from this storage are
///   serialised.
/// - `writeFile(expectedVersion:)` compares the version that Lock reports while the lock is held, so no other
///   lock-respecting client can write in between; a writer that ignores locks (only possible on an empty file) or
///   a lock that lapses could still race (best effort).
/// - `createFile` is CreateChildFile and a locked PutFile: a reader may briefly see the new file empty; an
///   interrupted create deletes the file again.
/// - `rename` of a file cannot change its extension (RenameFile keeps it): ``StorageError/Code/unsupported``.
/// - `move` between containers is ``StorageError/Code/crossContainerMove`` (WOPI has no move; callers copy and
///   delete). A move within the same container is a rename; `replacing` deletes the target first (not atomic).
/// - `readFile(range:)` downloads from the start and skips to the range (WOPI has no ranges).
/// - Container times are not in WOPI; containers report the time they were fetched.
///
/// **Incremental transfer.** With a ``chunkCache``, the ``LocalFileTransfer`` calls (which the FUSE mount uses for
/// whole-file loads, saves and repeated reads) go through ``WOPIClient/download(_:to:cache:progress:)`` and
/// ``WOPIClient/upload(_:to:lock:cache:progress:)``: for a file the host chunks (CSPP Plus), only the chunks that
/// changed cross the wire; otherwise, and for every stream, GetFile and PutFile as above.
public final class RemoteStorage: StorageBackend {
    /// Resolves the remote container that serves as `user`'s root.
    public typealias RootProvider = @Sendable (_ user: String) async throws -> WOPIContainerPointer

    /// The WOPI client.
    public let client: WOPIClient
    /// The chunk cache of incremental transfer (one per signed-in place), or `nil` for whole-file transfer.
    public let chunkCache: ChunkCache?
    /// The WOPI locks of this storage's files, for the FUSE mount; writes use the lock held there.
    public var locks: RemoteLockStore { RemoteLockStore(storage: self) }
    let directory = RemoteItemDirectory()
    let writes = AsyncKeyedMutex<ItemID>()
    let roots: RootProvider
    let logger: Logger
    /// Times the retries of a write that waits out another storage's short write lock.
    let clock: any Clock<Duration>

    /// Creates a storage whose user roots come from `roots`, transferring whole files.
    ///
    /// - Parameter clock: times write retries; tests pass one they move forward by hand.
    public init(
        client: WOPIClient, roots: @escaping RootProvider, logger: Logger = Logger(label: "wopikit.remote"),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.client = client
        self.roots = roots
        self.chunkCache = nil
        self.logger = logger
        self.clock = clock
    }

    /// Creates a storage whose user roots come from `roots`, using `chunkCache` for incremental transfer.
    ///
    /// - Parameters:
    ///   - chunkCache: the place's chunk cache (share it with other clients of the same place), or `nil`.
    ///   - clock: times write retries; tests pass one they move forward by hand.
    public init(
        client: WOPIClient, roots: @escaping RootProvider, chunkCache: ChunkCache?,
        logger: Logger = Logger(label: "wopikit.remote"), clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.client = client
        self.roots = roots
        self.chunkCache = chunkCache
        self.logger = logger
        self.clock = clock
    }

    /// Creates a storage for one signed-in place: its user's root is the place's root; other users have none
    /// (``StorageError/Code/notFound``).
    public convenience init(
        client: WOPIClient, place: WOPIPlace, logger: Logger = Logger(label: "wopikit.remote"),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(client: client, place: place, chunkCache: nil, logger: logger, clock: clock)
    }

    /// Creates a storage for one signed-in place that uses `chunkCache` (the place's) for incremental transfer:
    /// its user's root is the place's root; other users have none (``StorageError/Code/notFound``).
    public convenience init(
        client: WOPIClient, place: WOPIPlace, chunkCache: ChunkCache?,
        logger: Logger = Logger(label: "wopikit.remote"), clock: any Clock<Duration> = ContinuousClock()
    ) {
        let user = place.bootstrap.userID
        let root = place.root
        self.init(
            client: client,
            roots: { requested in
                guard requested == user else {
                    throw StorageError(
                        .notFound, "This remote storage is signed in as \(user), not \(requested); sign in as them.")
                }
                return root
            }, chunkCache: chunkCache, logger: logger, clock: clock)
    }

    // MARK: - Reading the tree

    public func rootContainer(forUser user: String) async throws -> ContainerMetadata {
        let id = try await directory.root(for: user) { [self] in
            let pointer = try await remote("rootContainer(forUser: \(user))", nil) { try await roots(user) }
            let id = try Self.itemID(of: pointer.resource)
            await directory.record(
                id, .init(resource: pointer.resource, kind: .container, name: pointer.name, parentID: nil, owner: user))
            return id
        }
        guard case .container(let root) = try await item(id) else {
            throw StorageError(.corrupt, "The root of \(user) is not a container.")
        }
        return root
    }

    public func item(_ id: ItemID) async throws -> StorageItem {
        let entry = try await entry(id)
        switch entry.kind {
        case .file:
            let info = try await remote("item(\(id))", id) { try await client.checkFileInfo(entry.resource) }
            await directory.rename(id, to: info.baseFileName)
            return .file(Self.metadata(id: id, entry: entry, info: info))
        case .container:
            let info = try await remote("item(\(id))", id) { try await client.checkContainerInfo(entry.resource) }
            await directory.rename(id, to: info.name)
            return .container(
                ContainerMetadata(
                    id: id, name: info.name, parentID: entry.parentID, ownerID: entry.owner, lastModified: Date()))
        }
    }

    public func children(of container: ItemID) async throws -> [StorageItem] {
        let entry = try await containerEntry(container)
        let listing = try await remote("children(of: \(container))", container) {
            try await client.enumerateChildren(of: entry.resource)
        }
        var items: [StorageItem] = []
        for child in listing.containers {
            let id = try Self.itemID(of: child.resource)
            await directory.record(
                id,
                .init(
                    resource: child.resource, kind: .container, name: child.name, parentID: container,
                    owner: entry.owner))
            items.append(
                .container(
                    ContainerMetadata(
                        id: id, name: child.name, parentID: container, ownerID: entry.owner, lastModified: Date())))
        }
        for child in listing.files {
            let id = try Self.itemID(of: child.resource)
            await directory.record(
                id,
                .init(resource: child.resource, kind: .file, name: child.name, parentID: container, owner: entry.owner))
            items.append(
                .file(
                    FileMetadata(
                        id: id, name: child.name, parentID: container, ownerID: entry.owner, size: child.size ?? 0,
                        version: child.version ?? "", lastModified: child.lastModified ?? Date(), sha256: nil)))
        }
        return items
    }

    /// The WOPI endpoint and token of an item this storage has learned, e.g. to build its Office open URL.
    ///
    /// - Throws: ``StorageError/Code/notFound`` for an item not seen yet.
    public func resource(of id: ItemID) async throws -> WOPIResource {
        try await entry(id).resource
    }

    // MARK: - Helpers

    /// The known entry of `id`, or ``StorageError/Code/notFound``.
    func entry(_ id: ItemID) async throws -> RemoteItemDirectory.Entry {
        guard let entry = await directory.entry(id) else {
            throw StorageError(
                .notFound, "No item with ID \(id) is known here; list its container first (or it was deleted).")
        }
        return entry
    }

    /// The known entry of a container, or ``StorageError/Code/notAContainer`` / `notFound`.
    func containerEntry(_ id: ItemID) async throws -> RemoteItemDirectory.Entry {
        let entry = try await entry(id)
        guard entry.kind == .container else {
            throw StorageError(.notAContainer, "Item \(id) is a file, not a container.")
        }
        return entry
    }

    /// The known entry of a file, or ``StorageError/Code/notAFile`` / `notFound`.
    func fileEntry(_ id: ItemID) async throws -> RemoteItemDirectory.Entry {
        let entry = try await entry(id)
        guard entry.kind == .file else { throw StorageError(.notAFile, "Item \(id) is a container, not a file.") }
        return entry
    }

    /// The ``ItemID`` of a remote resource: its WOPI ID.
    static func itemID(of resource: WOPIResource) throws -> ItemID {
        guard let raw = resource.id, let id = ItemID(rawValue: raw) else {
            throw StorageError(
                .corrupt,
                "The remote ID \"\(resource.id ?? "")\" does not fit ItemID (letters, digits, - and _, up "
                    + "to 128 characters); this host cannot be used through RemoteStorage.")
        }
        return id
    }

    /// File metadata from CheckFileInfo.
    static func metadata(id: ItemID, entry: RemoteItemDirectory.Entry, info: CheckFileInfo) -> FileMetadata {
        FileMetadata(
            id: id, name: info.baseFileName, parentID: entry.parentID ?? id, ownerID: entry.owner, size: info.size,
            version: info.version, lastModified: info.lastModifiedTime.flatMap(WOPIJSON.date(from:)) ?? Date(),
            sha256: info.sha256.flatMap { Data(base64Encoded: $0) })
    }
}
