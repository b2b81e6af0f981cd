import WOPIStorage

extension StorageConformance {
    /// Cases about roots, listing, names and IDs.
    static var treeCases: [StorageConformanceCase] {
        [
            .init("per-user roots are distinct and stable", rootsAreDistinctAndStable),
            .init("children and ancestors describe the tree", childrenAndAncestors),
            .init("a name conflict reports the conflicting item", nameConflicts),
            .init("names with Unicode and spaces round-trip exactly", unicodeNames),
            .init("dot names and # % [ ] { } ^ ` round-trip exactly", usersNames),
            .init("invalid names are rejected with invalidName", invalidNames),
            .init("an ID used as the wrong kind gives notAFile or notAContainer", wrongKinds),
            .init("an unknown ID gives notFound everywhere", unknownIDs),
        ]
    }

    static func rootsAreDistinctAndStable(_ backend: any StorageBackend) async throws {
        let alice = try await backend.rootContainer(forUser: "alice")
        let bob = try await backend.rootContainer(forUser: "bob")
        let aliceAgain = try await backend.rootContainer(forUser: "alice")
        try Check.expect(alice.id != bob.id, "two users got the same root container \(alice.id)")
        try Check.expectEqual(aliceAgain.id, alice.id, "a second rootContainer call for the same user")
        try Check.expect(alice.parentID == nil, "a root container must have no parent")
        try Check.expectEqual(alice.ownerID, "alice", "the owner of alice's root")
        try Check.expectEqual(bob.ownerID, "bob", "the owner of bob's root")
        guard case .container(let fetched) = try await backend.item(alice.id) else {
            throw ConformanceFailure("item(rootID) must return a container")
        }
        try Check.expectEqual(fetched.id, alice.id, "the ID of the root fetched by item(_:)")
        try Check.expect(fetched.parentID == nil, "a root fetched by item(_:) must have no parent")
        try Check.expectEqual(try await childNames(backend, alice.id), [], "the children of a new root")
        try Check.expectEqual(try await backend.ancestors(of: alice.id).count, 0, "the ancestors of a root")
        _ = try await makeFile(backend, "only-alice.txt", in: alice.id)
        try Check.expectEqual(try await childNames(backend, bob.id), [], "bob's root after alice created a file")
    }

    static func childrenAndAncestors(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let docs = try await makeContainer(backend, "docs", in: root.id)
        let deep = try await makeContainer(backend, "deep", in: docs.id)
        let file = try await makeFile(backend, "file.txt", in: deep.id)
        let top = try await makeFile(backend, "top.txt", in: root.id)
        try Check.expectEqual(docs.parentID, root.id, "the parent of a new container")
        try Check.expectEqual(docs.ownerID, "alice", "the owner of a new container")
        try Check.expectEqual(file.parentID, deep.id, "the parent of a new file")
        try Check.expectEqual(file.ownerID, "alice", "the owner of a new file")

        let rootChildren = try await backend.children(of: root.id)
        try Check.expectEqual(rootChildren.map(\.name).sorted(), ["docs", "top.txt"], "the children of the root")
        for child in rootChildren {
            try Check.expectEqual(child.parentID, root.id, "the parent of child \(child.name)")
            switch child {
            case .container(let container):
                try Check.expectEqual(container.id, docs.id, "the ID of the listed container")
            case .file(let listed):
                try Check.expectEqual(listed.id, top.id, "the ID of the listed file")
            }
        }
        try Check.expectEqual(
            try await backend.children(of: deep.id).map(\.id), [file.id], "the children of a nested container")
        try Check.expectEqual(
            try await backend.ancestors(of: file.id).map(\.id), [root.id, docs.id, deep.id],
            "the ancestors of a nested file (root first)")
        try Check.expectEqual(
            try await backend.ancestors(of: deep.id).map(\.id), [root.id, docs.id],
            "the ancestors of a nested container (root first)")
        try Check.expectEqual(
            try await backend.child(named: "file.txt", in: deep.id)?.id, file.id, "child(named:) of a file")
    }

    static func nameConflicts(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "a.txt", in: root.id, text: "first")
        let folder = try await makeContainer(backend, "folder", in: root.id)

        var error = try await Check.expectThrows(code: .nameConflict, "createFile over a file without overwrite") {
            try await backend.createFile(named: "a.txt", in: root.id, content: Content.text("second"), overwrite: false)
        }
        try Check.expectEqual(error.conflictingItem, file.id, "conflictingItem of a file-vs-file conflict")
        error = try await Check.expectThrows(code: .nameConflict, "createContainer named like a file") {
            try await backend.createContainer(named: "a.txt", in: root.id)
        }
        try Check.expectEqual(error.conflictingItem, file.id, "conflictingItem of a container-vs-file conflict")
        for overwrite in [false, true] {
            error = try await Check.expectThrows(
                code: .nameConflict, "createFile named like a container (overwrite: \(overwrite))"
            ) {
                try await backend.createFile(
                    named: "folder", in: root.id, content: Content.text("x"), overwrite: overwrite)
            }
            try Check.expectEqual(error.conflictingItem, folder.id, "conflictingItem of a file-vs-container conflict")
        }
        error = try await Check.expectThrows(code: .nameConflict, "createContainer named like a container") {
            try await backend.createContainer(named: "folder", in: root.id)
        }
        try Check.expectEqual(error.conflictingItem, folder.id, "conflictingItem of a container-vs-container conflict")
        try Check.expectEqual(try await Content.read(backend, file.id), "first", "the content after failed creates")
        try Check.expectEqual(try await childNames(backend, root.id), ["a.txt", "folder"], "the children")
        try Check.expectEqual(try await childNames(backend, folder.id), [], "the children of the container")
    }

    static func unicodeNames(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let names = [
            "R\u{E9}sum\u{E9} 2024.docx", "日本.docx", "Notes 📝 final 👩‍💻.docx", "two  spaces and  more.xlsx",
            String(repeating: "a", count: 251) + ".txt",
        ]
        let folderName = "Ünïcødé folder 📁"
        let folder = try await makeContainer(backend, folderName, in: root.id)
        try expectSameScalars(folder.name, folderName, "the name of a new container")
        for name in names {
            let file = try await makeFile(backend, name, in: folder.id, text: name)
            try expectSameScalars(file.name, name, "the name of a new file")
            try expectSameScalars(try await backend.item(file.id).name, name, "the name read back by item(_:)")
            let found = try await backend.child(named: name, in: folder.id)
            try Check.expectEqual(found?.id, file.id, "child(named: \"\(name)\")")
            try expectSameScalars(found?.name ?? "", name, "the name listed by children(of:)")
            try Check.expectEqual(try await Content.read(backend, file.id), name, "the content of \"\(name)\"")
        }
        let renamed = try await backend.rename(folder.id, to: "Ordner Größe 中文")
        try expectSameScalars(renamed.name, "Ordner Größe 中文", "the name after renaming to a Unicode name")
        try Check.expectEqual(try await backend.children(of: folder.id).count, names.count, "the files in it")
    }

    /// Names people keep (`.gitignore`, editors' and LibreOffice's temporary and lock files, `Notes #3.docx`):
    /// every backend stores them as given, in files and containers, through create, list and rename.
    static func usersNames(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let names = [
            ".gitignore", ".~lock.Report.docx#", ".Report.docx.tmp", "Notes #3.docx", "100% [final].xlsx",
            "{draft}^2 `x`.txt",
        ]
        let folder = try await makeContainer(backend, ".config [#1]", in: root.id)
        try expectSameScalars(folder.name, ".config [#1]", "the name of a new container")
        for name in names {
            let file = try await makeFile(backend, name, in: folder.id, text: name)
            try expectSameScalars(file.name, name, "the name of a new file")
            try Check.expectEqual(
                try await backend.child(named: name, in: folder.id)?.id, file.id, "child(named: \"\(name)\")")
            try Check.expectEqual(try await Content.read(backend, file.id), name, "the content of \"\(name)\"")
        }
        try Check.expectEqual(try await childNames(backend, folder.id), names.sorted(), "the names listed")
        let plain = try await makeFile(backend, "plain.txt", in: root.id)
        let renamedFile = try await backend.rename(plain.id, to: "Plan #2 [v3] 50%^{a}.txt")
        try expectSameScalars(renamedFile.name, "Plan #2 [v3] 50%^{a}.txt", "the name after renaming a file")
        let renamed = try await backend.rename(folder.id, to: ".hidden {old}")
        try expectSameScalars(renamed.name, ".hidden {old}", "the name after renaming a container")
        try Check.expectEqual(
            try await childNames(backend, root.id), [".hidden {old}", "Plan #2 [v3] 50%^{a}.txt"], "the root's children"
        )
    }

    private static func expectSameScalars(
        _ actual: String, _ expected: String, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try Check.expect(
            Array(actual.unicodeScalars) == Array(expected.unicodeScalars),
            "\(what) must round-trip exactly: got \"\(actual)\", expected \"\(expected)\"", file: file, line: line)
    }

    static func invalidNames(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "valid.txt", in: root.id)
        let folder = try await makeContainer(backend, "folder", in: root.id)
        let invalid = [
            "", ".", "..", "a/b", "../x", "a\\b", "/abs", "tab\there", "nul\u{0}byte", "new\nline", "del\u{7F}",
            String(repeating: "a", count: 256), String(repeating: "é", count: 128), " leading", "trailing ",
        ]
        for name in invalid {
            let shown = name.debugDescription
            try await Check.expectThrows(code: .invalidName, "createFile(named: \(shown))") {
                try await backend.createFile(named: name, in: root.id, content: Content.text("x"), overwrite: true)
            }
            try await Check.expectThrows(code: .invalidName, "createContainer(named: \(shown))") {
                try await backend.createContainer(named: name, in: root.id)
            }
            try await Check.expectThrows(code: .invalidName, "rename(to: \(shown))") {
                try await backend.rename(file.id, to: name)
            }
            try await Check.expectThrows(code: .invalidName, "move(newName: \(shown))") {
                try await backend.move(file.id, to: folder.id, newName: name, replacing: true)
            }
        }
        try Check.expectEqual(try await childNames(backend, root.id), ["folder", "valid.txt"], "the root's children")
        try Check.expectEqual(try await childNames(backend, folder.id), [], "the folder's children")
    }

    static func wrongKinds(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "file.txt", in: root.id)
        let folder = try await makeContainer(backend, "folder", in: root.id)
        try await Check.expectThrows(code: .notAFile, "readFile(container)") {
            try await backend.readFile(folder.id, range: nil)
        }
        try await Check.expectThrows(code: .notAFile, "writeFile(container)") {
            try await backend.writeFile(folder.id, content: Content.text("x"), expectedVersion: nil)
        }
        try await Check.expectThrows(code: .notAFile, "file(container)") { try await backend.file(folder.id) }
        try await Check.expectThrows(code: .notAContainer, "children(of: file)") {
            try await backend.children(of: file.id)
        }
        try await Check.expectThrows(code: .notAContainer, "container(file)") { try await backend.container(file.id) }
        try await Check.expectThrows(code: .notAContainer, "createFile(in: file)") {
            try await backend.createFile(named: "x.txt", in: file.id, content: Content.text("x"), overwrite: false)
        }
        try await Check.expectThrows(code: .notAContainer, "createContainer(in: file)") {
            try await backend.createContainer(named: "x", in: file.id)
        }
        try await Check.expectThrows(code: .notAContainer, "move(to: file)") {
            try await backend.move(folder.id, to: file.id, newName: nil, replacing: false)
        }
        try Check.expectEqual(try await Content.read(backend, file.id), "content", "the file after misuse")
    }

    static func unknownIDs(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "file.txt", in: root.id)
        let unknown = ItemID.random()
        try await Check.expectThrows(code: .notFound, "item(unknown)") { try await backend.item(unknown) }
        try await Check.expectThrows(code: .notFound, "readFile(unknown)") {
            try await backend.readFile(unknown, range: nil)
        }
        try await Check.expectThrows(code: .notFound, "writeFile(unknown)") {
            try await backend.writeFile(unknown, content: Content.text("x"), expectedVersion: nil)
        }
        try await Check.expectThrows(code: .notFound, "children(of: unknown)") {
            try await backend.children(of: unknown)
        }
        try await Check.expectThrows(code: .notFound, "createFile(in: unknown)") {
            try await backend.createFile(named: "x.txt", in: unknown, content: Content.text("x"), overwrite: false)
        }
        try await Check.expectThrows(code: .notFound, "createContainer(in: unknown)") {
            try await backend.createContainer(named: "x", in: unknown)
        }
        try await Check.expectThrows(code: .notFound, "rename(unknown)") { try await backend.rename(unknown, to: "y") }
        try await Check.expectThrows(code: .notFound, "move(unknown)") {
            try await backend.move(unknown, to: root.id, newName: nil, replacing: false)
        }
        try await Check.expectThrows(code: .notFound, "move(to: unknown)") {
            try await backend.move(file.id, to: unknown, newName: nil, replacing: false)
        }
        try await Check.expectThrows(code: .notFound, "delete(unknown)") { try await backend.delete(unknown) }
        try Check.expectEqual(try await childNames(backend, root.id), ["file.txt"], "the root's children")
    }
}
