package import Foundation
package import WOPIStorage

/// The checks and small operations a chunked-version storage makes the same way whatever its database.
package enum StorageRules {
    /// Validates `name` and returns its NFC form, the form names are stored and compared in.
    package static func normalised(_ name: String) throws -> String {
        try StorageName.validate(name).precomposedStringWithCanonicalMapping
    }

    /// Throws ``WOPIStorage/StorageError/Code/nameConflict`` unless `existing` is a file that `overwrite` lets a
    /// new file named `name` replace.
    /// - Returns: the file `existing` is.
    @discardableResult
    package static func ensureReplaceable(_ existing: StorageItem, named name: String, overwrite: Bool) throws
        -> FileMetadata
    {
        guard overwrite, case .file(let file) = existing else {
            throw StorageError(
                .nameConflict, "An item named \"\(name)\" already exists in this container.",
                conflictingItem: existing.id)
        }
        return file
    }

    /// Throws ``WOPIStorage/StorageError/Code/nameConflict`` when `existing` (the child of that name) is there.
    package static func ensureFree(_ existing: StorageItem?, named name: String) throws {
        if let existing {
            throw StorageError(
                .nameConflict, "An item named \"\(name)\" already exists in this container.",
                conflictingItem: existing.id)
        }
    }

    /// Throws ``WOPIStorage/StorageError/Code/versionMismatch`` when `expectedVersion` is given and `file` is at
    /// another version.
    package static func ensureVersion(of file: FileMetadata, is expectedVersion: String?) throws {
        if let expectedVersion, expectedVersion != file.version {
            throw StorageError(
                .versionMismatch, "File \(file.id) changed meanwhile (now at version \(file.version)); reload it.",
                currentVersion: file.version)
        }
    }

    /// The container `moving` leaves (a rename: stays in); throws ``WOPIStorage/StorageError/Code/unsupported``
    /// for a root.
    package static func parentForMove(of moving: StorageItem, renaming: Bool = false) throws -> ItemID {
        guard let parent = moving.parentID else {
            throw StorageError(.unsupported, "A root container cannot be \(renaming ? "renamed" : "moved").")
        }
        return parent
    }

    /// Checks a move of `moving` under `name` into a container where `existing` has that name, and returns the
    /// file the move replaces (to delete first), if any. `intoItself` says whether the target container is `moving`
    /// or below it.
    package static func replacedByMove(
        _ moving: StorageItem, named name: String, existing: StorageItem?, replacing: Bool, intoItself: Bool
    ) throws -> FileMetadata? {
        if case .container = moving, intoItself {
            throw StorageError(.invalidName, "A container cannot be moved into itself or its descendants.")
        }
        guard let existing, existing.id != moving.id else { return nil }
        guard replacing, case .file(let replaced) = existing, case .file = moving else {
            throw StorageError(
                .nameConflict, "An item named \"\(name)\" already exists in the target container.",
                conflictingItem: existing.id)
        }
        return replaced
    }

    /// The container `current` is deleted from; throws for a root, or for a container that `hasChildren`.
    package static func parentForDelete(of current: StorageItem, hasChildren: Bool) throws -> ItemID {
        guard let parent = current.parentID else {
            throw StorageError(.unsupported, "A root container cannot be deleted.")
        }
        if case .container = current, hasChildren {
            throw StorageError(.notEmpty, "Container \(current.id) is not empty; delete its children first.")
        }
        return parent
    }

    /// The children of `container` among `listed`, the rows of the one statement that lists a container: the
    /// container itself and the items whose parent it is (`WHERE id = ? OR parent_id = ?`), so that a listing needs
    /// no second read to tell an empty container from a missing one or a file.
    /// - Throws: ``WOPIStorage/StorageError/Code/notFound`` when the container is not among them,
    ///   ``WOPIStorage/StorageError/Code/notAContainer`` when it is a file.
    package static func children(of container: ItemID, listed: [StorageItem]) throws -> [StorageItem] {
        guard let index = listed.firstIndex(where: { $0.id == container }) else {
            throw StorageError.notFound(container)
        }
        guard case .container = listed[index] else {
            throw StorageError(.notAContainer, "Item \(container) is a file, not a container.")
        }
        var children = listed
        children.remove(at: index)
        return children
    }

    /// The item a row of the `items` table (joined with its current version, if a file) describes; throws
    /// ``WOPIStorage/StorageError/Code/corrupt`` for a row no storage writes.
    package static func item(
        id rawID: String, parent rawParent: String?, owner: String, kind: String, name: String, modifiedAt: Double,
        versionID: Int64?, size: Int64?, sha256: Data?, committedAt: Double?
    ) throws -> StorageItem {
        guard let id = ItemID(rawValue: rawID) else {
            throw StorageError(.corrupt, "The database holds an invalid item ID \"\(rawID)\"; restore a backup.")
        }
        let parent = try rawParent.map { raw in
            guard let parent = ItemID(rawValue: raw) else {
                throw StorageError(.corrupt, "Item \(id) has an invalid parent ID \"\(raw)\"; restore a backup.")
            }
            return parent
        }
        let modified = Date(timeIntervalSince1970: modifiedAt)
        guard kind == "file" else {
            return .container(
                ContainerMetadata(id: id, name: name, parentID: parent, ownerID: owner, lastModified: modified))
        }
        guard let parent, let versionID else {
            throw StorageError(.corrupt, "File \(id) has no parent or no content version; restore a backup.")
        }
        return .file(
            FileMetadata(
                id: id, name: name, parentID: parent, ownerID: owner, size: size ?? 0, version: String(versionID),
                lastModified: committedAt.map(Date.init(timeIntervalSince1970:)) ?? modified, sha256: sha256))
    }
}

/// Errors of the engine itself.
enum StorageErrors {
    /// A statement returned fewer rows than the engine's SQL always returns.
    static let missingRows = StorageError(.io, "The database returned fewer rows than expected; retry.")
}
