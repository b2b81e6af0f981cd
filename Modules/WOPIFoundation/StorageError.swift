/// An error from storage, a file or a body: a `StorageBackend` or a `LockStore` of `WOPIStorage`, a file WOPIKit
/// writes, or a body larger than allowed.
///
/// Match on ``code``; the cases are open for additions, so always keep a `default` branch. The ``message``
/// says what went wrong and what to do, in words fit for a log or an operator.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case notFound, nameConflict, invalidName, notEmpty, versionMismatch, notAFile, notAContainer
            case unsupported, tooLarge, crossContainerMove, io, corrupt, busy, unavailable, permissionDenied
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The item does not exist (or was deleted).
        public static let notFound = Code(.notFound)
        /// Another item in the same container already has that name.
        public static let nameConflict = Code(.nameConflict)
        /// The name is empty, `.`/`..`, holds `/` or NUL, or is too long.
        public static let invalidName = Code(.invalidName)
        /// A container that still has children cannot be deleted.
        public static let notEmpty = Code(.notEmpty)
        /// A conditional write found the file at another version than expected.
        public static let versionMismatch = Code(.versionMismatch)
        /// The ID names a container where a file was expected.
        public static let notAFile = Code(.notAFile)
        /// The ID names a file where a container was expected.
        public static let notAContainer = Code(.notAContainer)
        /// The backend does not support this operation.
        public static let unsupported = Code(.unsupported)
        /// The content or body is larger than allowed.
        public static let tooLarge = Code(.tooLarge)
        /// The backend cannot move an item to another container (callers fall back to copy and delete).
        public static let crossContainerMove = Code(.crossContainerMove)
        /// The underlying storage failed (disk, database, network).
        public static let io = Code(.io)
        /// Stored data is inconsistent with what the backend expects.
        public static let corrupt = Code(.corrupt)
        /// The storage is held by another writer (a database locked by another process) beyond the backend's
        /// bounded wait; nothing was changed, and the same request may succeed later (hosts answer 503 with
        /// `Retry-After`).
        public static let busy = Code(.busy)
        /// The storage service (a database server) cannot be reached for now; nothing was changed, and the same
        /// request may succeed when retried in a few seconds. A WOPI host answers it with `503` and `Retry-After`.
        public static let unavailable = Code(.unavailable)
        /// The user whose view of the storage this is may not do this (a policy's refusal or a change guard's veto,
        /// as a user-scoped view such as `WOPIHost.storage(for:)` reports them); nothing was changed.
        public static let permissionDenied = Code(.permissionDenied)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String
    /// For ``Code/nameConflict``, the item that already has the name, when known.
    public let conflictingItem: ItemID?
    /// For ``Code/versionMismatch``, the version the file is at now.
    public let currentVersion: String?
    /// The lower-level error behind this one, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, conflictingItem: ItemID? = nil, currentVersion: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.conflictingItem = conflictingItem
        self.currentVersion = currentVersion
        self.underlying = underlying
    }

    public var description: String {
        var text = "StorageError.\(code): \(message)"
        if let underlying { text += " (underlying: \(underlying))" }
        return text
    }

    /// The error for an ID that names nothing.
    public static func notFound(_ id: ItemID) -> StorageError {
        StorageError(.notFound, "No item with ID \(id) exists; it may have been deleted.")
    }
}
