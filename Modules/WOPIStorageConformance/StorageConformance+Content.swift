import WOPIStorage

extension StorageConformance {
    /// Cases about file content and versions.
    static var contentCases: [StorageConformanceCase] {
        [
            .init("a created file reads back with its size, SHA-256 and version", createAndRead),
            .init("every write gives a new version that never repeats and keeps the ID", versionsNeverRepeat),
            .init("createFile replaces a file only with overwrite", createFileOverwrite),
            .init("ranged reads return the range clamped to the file", rangedReads),
            .init("a write with a stale expectedVersion fails with versionMismatch", conditionalWrite),
            .init("a file of several MiB written in many chunks reads back identical", largeFile),
        ]
    }

    static func createAndRead(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let text = "Hello, WOPI!\n"
        let file = try await makeFile(backend, "hello.txt", in: root.id, text: text)
        try Check.expectEqual(file.name, "hello.txt", "the name of a new file")
        try Check.expectEqual(file.size, Int64(text.utf8.count), "the size of a new file")
        try Check.expectEqual(file.sha256, Content.sha256(text), "the SHA-256 of a new file")
        try Check.expect(!file.version.isEmpty, "a new file must have a non-empty version")

        let content = try await backend.readFile(file.id, range: nil)
        try Check.expectEqual(content.metadata.id, file.id, "the ID in readFile's metadata")
        try Check.expectEqual(content.metadata.version, file.version, "the version in readFile's metadata")
        try Check.expectEqual(content.metadata.size, file.size, "the size in readFile's metadata")
        let read = try await Content.digest(of: content.body)
        try Check.expectEqual(read.sha256, Content.sha256(text), "the SHA-256 of the content read back")
        try Check.expectEqual(read.count, file.size, "the number of bytes read back")

        guard case .file(let fetched) = try await backend.item(file.id) else {
            throw ConformanceFailure("item(fileID) must return a file")
        }
        try Check.expectEqual(fetched.version, file.version, "the version fetched by item(_:)")
        try Check.expectEqual(fetched.size, file.size, "the size fetched by item(_:)")
        try Check.expectEqual(fetched.sha256, file.sha256, "the SHA-256 fetched by item(_:)")

        let empty = try await Check.step("createFile with an empty body") {
            try await backend.createFile(named: "empty.txt", in: root.id, content: .empty, overwrite: false)
        }
        try Check.expectEqual(empty.size, 0, "the size of an empty file")
        try Check.expectEqual(empty.sha256, ContentDigest.emptySHA256, "the SHA-256 of an empty file")
        try Check.expectEqual(try await Content.read(backend, empty.id), "", "the content of an empty file")
    }

    static func versionsNeverRepeat(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "v.txt", in: root.id, text: "A")
        var versions = [file.version]
        for round in 1...6 {
            let text = round.isMultiple(of: 2) ? "A" : "B"  // content repeats; versions must not
            let written = try await backend.writeFile(file.id, content: Content.text(text), expectedVersion: nil)
            try Check.expectEqual(written.id, file.id, "the ID after a write")
            try Check.expect(
                !versions.contains(written.version), "write \(round) repeated an earlier version \(written.version)")
            try Check.expectEqual(written.sha256, Content.sha256(text), "the SHA-256 after write \(round)")
            versions.append(written.version)
            try Check.expectEqual(try await backend.file(file.id).version, written.version, "the current version")
            try Check.expectEqual(try await Content.read(backend, file.id), text, "the content after write \(round)")
        }
        let replaced = try await backend.createFile(
            named: "v.txt", in: root.id, content: Content.text("C"), overwrite: true)
        try Check.expect(!versions.contains(replaced.version), "createFile(overwrite:) repeated an earlier version")
    }

    static func createFileOverwrite(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "doc.txt", in: root.id, text: "one")
        let replaced = try await Check.step("createFile(overwrite: true) over a file") {
            try await backend.createFile(named: "doc.txt", in: root.id, content: Content.text("two"), overwrite: true)
        }
        try Check.expectEqual(replaced.id, file.id, "the ID of a file replaced by createFile(overwrite: true)")
        try Check.expect(replaced.version != file.version, "createFile(overwrite: true) must give a new version")
        try Check.expectEqual(replaced.size, 3, "the size after createFile(overwrite: true)")
        try Check.expectEqual(try await Content.read(backend, file.id), "two", "the content after overwrite")
        let error = try await Check.expectThrows(code: .nameConflict, "createFile(overwrite: false) over a file") {
            try await backend.createFile(
                named: "doc.txt", in: root.id, content: Content.text("three"), overwrite: false)
        }
        try Check.expectEqual(error.conflictingItem, file.id, "conflictingItem of createFile(overwrite: false)")
        try Check.expectEqual(try await Content.read(backend, file.id), "two", "the content after a refused create")
        try Check.expectEqual(try await backend.file(file.id).version, replaced.version, "the version after it")
        let fresh = try await Check.step("createFile(overwrite: true) of a new name") {
            try await backend.createFile(named: "new.txt", in: root.id, content: Content.text("new"), overwrite: true)
        }
        try Check.expect(fresh.id != file.id, "a new file must get its own ID")
        try Check.expectEqual(try await childNames(backend, root.id), ["doc.txt", "new.txt"], "the root's children")
    }

    static func rangedReads(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "range.txt", in: root.id, text: "0123456789abcdef")
        let cases: [(Range<Int64>, String)] = [
            (4..<10, "456789"), (0..<16, "0123456789abcdef"), (10..<100, "abcdef"), (5..<5, ""), (16..<20, ""),
            (40..<50, ""), (0..<1, "0"),
        ]
        for (range, expected) in cases {
            try Check.expectEqual(try await Content.read(backend, file.id, range: range), expected, "bytes \(range)")
        }
        let ranged = try await backend.readFile(file.id, range: 2..<4)
        try Check.expectEqual(ranged.metadata.size, 16, "a ranged read's metadata must give the whole file's size")

        let size = 3 * ByteStream.preferredChunkSize + 1234
        let large = try await backend.createFile(
            named: "large.bin", in: root.id, content: Content.pattern(seed: 3, size: size), overwrite: false)
        for range in [100..<(size - 100), (ByteStream.preferredChunkSize - 1)..<(ByteStream.preferredChunkSize + 1)] {
            let read = try await Content.digest(
                of: try await backend.readFile(large.id, range: Int64(range.lowerBound)..<Int64(range.upperBound)).body)
            try Check.expectEqual(read.count, Int64(range.count), "the length of bytes \(range) of a large file")
            try Check.expect(
                read.sha256 == Content.patternSHA256(seed: 3, range: range),
                "bytes \(range) of a large file differ from what was written")
        }
    }

    static func conditionalWrite(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let first = try await makeFile(backend, "c.txt", in: root.id, text: "original")
        let second = try await backend.writeFile(first.id, content: Content.text("second"), expectedVersion: nil)
        let error = try await Check.expectThrows(code: .versionMismatch, "writeFile with a stale expectedVersion") {
            try await backend.writeFile(first.id, content: Content.text("stale"), expectedVersion: first.version)
        }
        if let current = error.currentVersion {
            try Check.expectEqual(current, second.version, "versionMismatch's currentVersion")
        }
        try await Check.expectThrows(code: .versionMismatch, "writeFile with a made-up expectedVersion") {
            try await backend.writeFile(first.id, content: Content.text("stale"), expectedVersion: "no-such-version")
        }
        try Check.expectEqual(try await Content.read(backend, first.id), "second", "the content after a refused write")
        try Check.expectEqual(try await backend.file(first.id).version, second.version, "the version after it")
        let third = try await Check.step("writeFile with the current expectedVersion") {
            try await backend.writeFile(first.id, content: Content.text("third"), expectedVersion: second.version)
        }
        try Check.expect(third.version != second.version, "a conditional write must give a new version")
        try Check.expectEqual(try await Content.read(backend, first.id), "third", "the content after it")
    }

    static func largeFile(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        // 9 MiB and more: a backend that hashes or writes in batches of a few MiB goes through several, in order.
        let sizes = [(seed: UInt8(1), size: 9 * 1024 * 1024 + 12_345), (seed: UInt8(2), size: 5 * 1024 * 1024 - 3)]
        var id: ItemID?
        for (seed, size) in sizes {
            let body = Content.pattern(seed: seed, size: size)
            let written: FileMetadata
            if let id {
                written = try await backend.writeFile(id, content: body, expectedVersion: nil)
            } else {
                written = try await backend.createFile(named: "large.bin", in: root.id, content: body, overwrite: false)
            }
            id = written.id
            let expected = Content.patternSHA256(seed: seed, size: size)
            try Check.expectEqual(written.size, Int64(size), "the size of a large file")
            try Check.expect(written.sha256 == expected, "the SHA-256 of a large file is not that of its content")
            let read = try await Content.digest(of: try await backend.readFile(written.id, range: nil).body)
            try Check.expectEqual(read.count, Int64(size), "the number of bytes of a large file read back")
            try Check.expect(read.sha256 == expected, "a large file read back differs from what was written")
        }
    }
}
