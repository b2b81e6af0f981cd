import Foundation
import Logging
import WOPIModels
public import WOPIStorage

extension RemoteStorage {
    public func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata {
        let folder = try await containerEntry(parent)
        try Self.validate(name)
        let created: WOPIContainerPointer
        do {
            created = try await remote("createContainer(named: \(name))", parent) {
                try await client.createChildContainer(in: folder.resource, name: .exact(name))
            }
        } catch let error as StorageError where error.code == .nameConflict {
            throw StorageError(
                .nameConflict, "An item named \"\(name)\" already exists in this container.",
                conflictingItem: try? await child(named: name, in: parent)?.id, underlying: error)
        }
        let id = try Self.itemID(of: created.resource)
        await directory.record(
            id,
            .init(
                resource: created.resource, kind: .container, name: created.name, parentID: parent, owner: folder.owner)
        )
        return ContainerMetadata(
            id: id, name: created.name, parentID: parent, ownerID: folder.owner, lastModified: .now)
    }

    public func rename(_ id: ItemID, to newName: String) async throws -> StorageItem {
        let entry = try await entry(id)
        guard let parent = entry.parentID else {
            throw StorageError(.unsupported, "A root container cannot be renamed.")
        }
        try Self.validate(newName)
        if let existing = try await child(named: newName, in: parent) {
            guard existing.id == id else {
                throw StorageError(
                    .nameConflict, "An item named \"\(newName)\" already exists in this container.",
                    conflictingItem: existing.id)
            }
            return try await item(id)
        }
        switch entry.kind {
        case .container:
            _ = try await remote("rename(\(id))", id, conflict: .nameConflict) {
                try await client.renameContainer(entry.resource, to: newName)
            }
        case .file:
            let current = try await item(id)
            let old = FileNameRules.split(current.name)
            let new = FileNameRules.split(newName)
            guard old.extension == new.extension else {
                throw StorageError(
                    .unsupported,
                    "WOPI's RenameFile keeps the extension; \"\(current.name)\" cannot become "
                        + "\"\(newName)\". Copy the file under the new name instead.")
            }
            let held = await directory.heldLock(id)?.id
            let base = try await remote("rename(\(id))", id) {
                try await client.renameFile(entry.resource, toBaseName: new.base, lock: held)
            }
            if base != new.base {
                logger.warning(
                    "The host adjusted a file name",
                    metadata: ["file": "\(id)", "requested": "\(newName)", "got": "\(base)"])
            }
        }
        let renamed = try await item(id)
        return renamed
    }

    public func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) async throws -> StorageItem
    {
        let entry = try await entry(id)
        guard let parent = entry.parentID else { throw StorageError(.unsupported, "A root container cannot be moved.") }
        _ = try await containerEntry(newParent)
        let name = newName ?? entry.name
        try Self.validate(name)
        if entry.kind == .container, await directory.isSelfOrDescendant(newParent, of: id) {
            throw StorageError(.invalidName, "A container cannot be moved into itself or below itself.")
        }
        guard newParent == parent else {
            throw StorageError(
                .crossContainerMove, "WOPI cannot move items between containers; copy the item and delete the original."
            )
        }
        if let existing = try await child(named: name, in: parent), existing.id != id {
            guard replacing, case .file = existing, entry.kind == .file else {
                throw StorageError(
                    .nameConflict, "An item named \"\(name)\" already exists in the target container.",
                    conflictingItem: existing.id)
            }
            // Refuse before deleting anything: a rename that RenameFile cannot do would leave neither file.
            guard FileNameRules.split(entry.name).extension == FileNameRules.split(name).extension else {
                throw StorageError(
                    .unsupported,
                    "WOPI's RenameFile keeps the extension, so \"\(entry.name)\" cannot replace \"\(name)\"; "
                        + "write its content into \"\(name)\" instead.")
            }
            try await delete(existing.id)
        }
        return try await rename(id, to: name)
    }

    public func delete(_ id: ItemID) async throws {
        let entry = try await entry(id)
        guard entry.parentID != nil else { throw StorageError(.unsupported, "A root container cannot be deleted.") }
        switch entry.kind {
        case .file:
            try await remote("delete(\(id))", id) { try await client.deleteFile(entry.resource) }
        case .container:
            try await remote("delete(\(id))", id, conflict: .notEmpty) {
                try await client.deleteContainer(entry.resource)
            }
        }
        await directory.forget(id)
    }
}
