import WOPIStorage

extension StorageConformance {
    /// Cases about renaming, moving and deleting.
    static var moveCases: [StorageConformanceCase] {
        [
            .init("rename keeps the ID and content; a taken name fails", renameKeepsID),
            .init("move to another container keeps the ID (or changes nothing)", moveKeepsID),
            .init("move onto a file replaces it only with replacing", moveReplacing),
            .init("a container cannot move into itself or a descendant", moveIntoItself),
            .init("a deleted file is gone", deleteFile),
            .init("a non-empty container cannot be deleted", deleteContainer),
        ]
    }

    static func renameKeepsID(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "a.txt", in: root.id, text: "kept")
        let folder = try await makeContainer(backend, "docs", in: root.id)
        let inner = try await makeFile(backend, "inner.txt", in: folder.id, text: "inner")

        let renamed = try await backend.rename(file.id, to: "b.txt")
        try Check.expectEqual(renamed.id, file.id, "the ID returned by rename")
        try Check.expectEqual(renamed.name, "b.txt", "the name returned by rename")
        try Check.expectEqual(try await backend.item(file.id).name, "b.txt", "the name after rename")
        try Check.expectEqual(try await Content.read(backend, file.id), "kept", "the content after rename")
        try Check.expectEqual(try await childNames(backend, root.id), ["b.txt", "docs"], "the root's children")

        let renamedFolder = try await backend.rename(folder.id, to: "papers")
        try Check.expectEqual(renamedFolder.id, folder.id, "the ID of a renamed container")
        try Check.expectEqual(try await backend.item(inner.id).parentID, folder.id, "a child's parent after rename")
        try Check.expectEqual(try await Content.read(backend, inner.id), "inner", "a child's content after rename")

        let other = try await makeFile(backend, "c.txt", in: root.id, text: "other")
        let error = try await Check.expectThrows(code: .nameConflict, "rename to a sibling's name") {
            try await backend.rename(file.id, to: "c.txt")
        }
        try Check.expectEqual(error.conflictingItem, other.id, "conflictingItem of a rename conflict")
        try await Check.expectThrows(code: .nameConflict, "rename a container to a file sibling's name") {
            try await backend.rename(folder.id, to: "c.txt")
        }
        try Check.expectEqual(try await Content.read(backend, file.id), "kept", "the renamed file after a conflict")
        try Check.expectEqual(try await Content.read(backend, other.id), "other", "the sibling after a conflict")
        try Check.expectEqual(try await childNames(backend, root.id), ["b.txt", "c.txt", "papers"], "the children")
    }

    static func moveKeepsID(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let source = try await makeContainer(backend, "src", in: root.id)
        let target = try await makeContainer(backend, "dst", in: root.id)
        let file = try await makeFile(backend, "file.txt", in: source.id, text: "moving")
        let folder = try await makeContainer(backend, "sub", in: source.id)
        let nested = try await makeFile(backend, "nested.txt", in: folder.id, text: "nested")

        let moved: StorageItem
        do {
            moved = try await backend.move(file.id, to: target.id, newName: nil, replacing: false)
        } catch let error as StorageError where error.code == .crossContainerMove {
            // A backend may refuse moves between containers; then nothing may have changed.
            try Check.expectEqual(try await backend.item(file.id).parentID, source.id, "the parent after a refusal")
            try Check.expectEqual(try await Content.read(backend, file.id), "moving", "the content after a refusal")
            try Check.expectEqual(try await childNames(backend, target.id), [], "the target after a refusal")
            return
        }
        try Check.expectEqual(moved.id, file.id, "the ID returned by move")
        try Check.expectEqual(moved.parentID, target.id, "the parent returned by move")
        try Check.expectEqual(try await backend.item(file.id).parentID, target.id, "the parent after move")
        try Check.expectEqual(try await Content.read(backend, file.id), "moving", "the content after move")
        try Check.expectEqual(try await childNames(backend, source.id), ["sub"], "the source after move")
        try Check.expectEqual(try await childNames(backend, target.id), ["file.txt"], "the target after move")

        let movedFolder = try await backend.move(folder.id, to: target.id, newName: "renamed sub", replacing: false)
        try Check.expectEqual(movedFolder.id, folder.id, "the ID of a moved container")
        try Check.expectEqual(movedFolder.name, "renamed sub", "the new name of a moved container")
        try Check.expectEqual(
            try await backend.ancestors(of: nested.id).map(\.id), [root.id, target.id, folder.id],
            "the ancestors of a file inside a moved container")
        try Check.expectEqual(try await Content.read(backend, nested.id), "nested", "a moved child's content")

        _ = try await makeFile(backend, "file.txt", in: source.id, text: "newcomer")
        let error = try await Check.expectThrows(code: .nameConflict, "move onto a taken name") {
            try await backend.move(file.id, to: source.id, newName: nil, replacing: false)
        }
        try Check.expect(error.conflictingItem != nil, "a move conflict must name the conflicting item")
        try Check.expectEqual(try await backend.item(file.id).parentID, target.id, "the parent after a refused move")
    }

    static func moveReplacing(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "draft.txt", in: root.id, text: "draft")
        let old = try await makeFile(backend, "final.txt", in: root.id, text: "old")
        let folder = try await makeContainer(backend, "folder", in: root.id)
        let error = try await Check.expectThrows(code: .nameConflict, "move onto a file without replacing") {
            try await backend.move(file.id, to: root.id, newName: "final.txt", replacing: false)
        }
        try Check.expectEqual(error.conflictingItem, old.id, "conflictingItem of a move conflict")
        try Check.expectEqual(try await Content.read(backend, old.id), "old", "the target after a refused move")
        try await Check.expectThrows(code: .nameConflict, "move a file onto a container even with replacing") {
            try await backend.move(file.id, to: root.id, newName: "folder", replacing: true)
        }
        try await Check.expectThrows(code: .nameConflict, "move a container onto a file even with replacing") {
            try await backend.move(folder.id, to: root.id, newName: "final.txt", replacing: true)
        }
        let moved = try await backend.move(file.id, to: root.id, newName: "final.txt", replacing: true)
        try Check.expectEqual(moved.id, file.id, "the ID of a file moved with replacing")
        try Check.expectEqual(try await Content.read(backend, file.id), "draft", "the content after replacing")
        try await Check.expectThrows(code: .notFound, "item(replaced file)") { try await backend.item(old.id) }
        try Check.expectEqual(try await childNames(backend, root.id), ["final.txt", "folder"], "the children")
    }

    static func moveIntoItself(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let outer = try await makeContainer(backend, "outer", in: root.id)
        let middle = try await makeContainer(backend, "middle", in: outer.id)
        let inner = try await makeContainer(backend, "inner", in: middle.id)
        for (target, label) in [(outer.id, "itself"), (middle.id, "its child"), (inner.id, "its grandchild")] {
            try await Check.expectThrows(
                anyOf: [.invalidName, .crossContainerMove], "moving a container into \(label)"
            ) {
                try await backend.move(outer.id, to: target, newName: nil, replacing: false)
            }
        }
        try Check.expectEqual(try await backend.item(outer.id).parentID, root.id, "the parent after refusals")
        try Check.expectEqual(
            try await backend.ancestors(of: inner.id).map(\.id), [root.id, outer.id, middle.id],
            "the ancestors after refusals")
    }

    static func deleteFile(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "gone.txt", in: root.id)
        try await Check.step("delete(file)") { try await backend.delete(file.id) }
        try await Check.expectThrows(code: .notFound, "item(deleted file)") { try await backend.item(file.id) }
        try await Check.expectThrows(code: .notFound, "readFile(deleted file)") {
            try await backend.readFile(file.id, range: nil)
        }
        try await Check.expectThrows(code: .notFound, "delete(deleted file)") { try await backend.delete(file.id) }
        try Check.expectEqual(try await childNames(backend, root.id), [], "the root after a delete")
        let again = try await makeFile(backend, "gone.txt", in: root.id)
        try Check.expect(again.id != file.id, "a file created again after a delete must get a new ID")
        try await Check.expectThrows(anyOf: [.unsupported, .invalidName], "delete(root)") {
            try await backend.delete(root.id)
        }
    }

    static func deleteContainer(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let folder = try await makeContainer(backend, "full", in: root.id)
        let file = try await makeFile(backend, "child.txt", in: folder.id)
        try await Check.expectThrows(code: .notEmpty, "delete(non-empty container)") {
            try await backend.delete(folder.id)
        }
        try Check.expectEqual(try await Content.read(backend, file.id), "content", "the child after a refused delete")
        try await backend.delete(file.id)
        try await Check.step("delete(empty container)") { try await backend.delete(folder.id) }
        try await Check.expectThrows(code: .notFound, "item(deleted container)") { try await backend.item(folder.id) }
        try Check.expectEqual(try await childNames(backend, root.id), [], "the root after deletes")
    }
}
