import Foundation
import WOPIStorage

extension StorageConformance {
    /// Cases about failures and concurrency: atomicity under interruption and racing writers.
    static var robustnessCases: [StorageConformanceCase] {
        [
            .init("an interrupted write keeps the old content and version", interruptedWrite),
            .init("an interrupted createFile leaves nothing behind", interruptedCreate),
            .init("concurrent writers leave exactly one whole content", concurrentWriters),
            .init("concurrent createFile of one name: exactly one succeeds", concurrentCreates),
            .init("a read opened before a write yields the old version whole", readDuringWrite),
        ]
    }

    static func interruptedWrite(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "safe.txt", in: root.id, text: "original content")
        try await Check.expectThrows("writeFile with a failing body") {
            try await backend.writeFile(
                file.id, content: Content.failing(afterChunks: 3), expectedVersion: nil)
        }
        // 9.6 MiB before the failure: a backend that writes in batches of a few MiB has written some of them by then.
        try await Check.expectThrows("writeFile with a body failing after 9.6 MiB") {
            try await backend.writeFile(
                file.id, content: Content.failing(afterChunks: 600), expectedVersion: nil)
        }
        try await Check.expectThrows("createFile(overwrite:) with a failing body") {
            try await backend.createFile(
                named: "safe.txt", in: root.id, content: Content.failing(afterChunks: 2), overwrite: true)
        }
        let after = try await backend.file(file.id)
        try Check.expectEqual(after.version, file.version, "the version after interrupted writes")
        try Check.expectEqual(after.size, file.size, "the size after interrupted writes")
        try Check.expectEqual(
            try await Content.read(backend, file.id), "original content", "the content after interrupted writes")
        try Check.expectEqual(try await childNames(backend, root.id), ["safe.txt"], "the root's children")
    }

    static func interruptedCreate(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        try await Check.expectThrows("createFile with a failing body") {
            try await backend.createFile(
                named: "partial.bin", in: root.id, content: Content.failing(afterChunks: 3), overwrite: false)
        }
        try Check.expectEqual(try await childNames(backend, root.id), [], "the root after an interrupted create")
        let file = try await makeFile(backend, "partial.bin", in: root.id, text: "complete")
        try Check.expectEqual(try await Content.read(backend, file.id), "complete", "a later create of that name")
    }

    static func concurrentWriters(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let file = try await makeFile(backend, "contended.bin", in: root.id, text: "initial")
        let writers = 8
        let size = 300_000
        let results = await withTaskGroup(of: Result<FileMetadata, any Error>.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    await outcome {
                        try await backend.writeFile(
                            file.id, content: Content.pattern(seed: UInt8(writer), size: size, chunkSize: 32 * 1024),
                            expectedVersion: nil)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var versions: Set<String> = []
        for result in results {
            switch result {
            case .success(let written):
                try Check.expect(versions.insert(written.version).inserted, "two writes got one version")
            case .failure(let error):
                try Check.expect(error is StorageError, "a concurrent write failed with a non-storage error: \(error)")
            }
        }
        try Check.expect(!versions.isEmpty, "every one of \(writers) concurrent writes failed")
        let expected = Set((0..<writers).map { Content.patternSHA256(seed: UInt8($0), size: size) })
        let content = try await backend.readFile(file.id, range: nil)
        let read = try await Content.digest(of: content.body)
        try Check.expect(expected.contains(read.sha256), "after concurrent writes the content is not one write whole")
        try Check.expectEqual(read.count, Int64(size), "the size after concurrent writes")
        try Check.expect(versions.contains(content.metadata.version), "the final version is not one a write returned")
        if let sha = content.metadata.sha256 {
            try Check.expectEqual(sha, read.sha256, "the SHA-256 in the metadata after concurrent writes")
        }
    }

    static func concurrentCreates(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let creators = 8
        let results = await withTaskGroup(of: (Int, Result<FileMetadata, any Error>).self) { group in
            for creator in 0..<creators {
                group.addTask {
                    let result = await outcome {
                        try await backend.createFile(
                            named: "same.txt", in: root.id, content: Content.text("creator \(creator)"),
                            overwrite: false)
                    }
                    return (creator, result)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var winners: [(Int, FileMetadata)] = []
        var conflicts: [StorageError] = []
        for (creator, result) in results {
            switch result {
            case .success(let file): winners.append((creator, file))
            case .failure(let error as StorageError) where error.code == .nameConflict: conflicts.append(error)
            case .failure(let error):
                throw ConformanceFailure(
                    "a concurrent createFile failed other than with nameConflict", underlying: error)
            }
        }
        try Check.expectEqual(winners.count, 1, "the number of concurrent createFile calls that succeeded")
        let (winner, file) = winners[0]
        for conflict in conflicts where conflict.conflictingItem != nil {
            try Check.expectEqual(conflict.conflictingItem, file.id, "conflictingItem of a losing createFile")
        }
        try Check.expectEqual(try await Content.read(backend, file.id), "creator \(winner)", "the winner's content")
        try Check.expectEqual(try await backend.children(of: root.id).map(\.id), [file.id], "the root's children")
    }

    static func readDuringWrite(_ backend: any StorageBackend) async throws {
        let root = try await root(backend)
        let size = 3 * ByteStream.preferredChunkSize + 100
        let file = try await backend.createFile(
            named: "read.bin", in: root.id, content: Content.pattern(seed: 7, size: size), overwrite: false)
        let untouched = try await backend.readFile(file.id, range: nil)
        let started = try await backend.readFile(file.id, range: nil)
        var iterator = started.body.makeAsyncIterator()
        var startedDigest = ContentDigest()
        if let first = try await iterator.next() { startedDigest.update(first) }

        _ = try await backend.writeFile(file.id, content: Content.pattern(seed: 8, size: 1000), expectedVersion: nil)

        while let chunk = try await iterator.next() { startedDigest.update(chunk) }
        let oldSHA = Content.patternSHA256(seed: 7, size: size)
        try Check.expectEqual(started.metadata.version, file.version, "the version of a read opened before a write")
        try Check.expect(
            startedDigest.finalize() == oldSHA && startedDigest.byteCount == Int64(size),
            "a read started before a write did not yield the old content whole")
        let untouchedRead = try await Content.digest(of: untouched.body)
        try Check.expect(
            untouchedRead.sha256 == oldSHA,
            "a read opened (not yet started) before a write did not yield the old content")
        let fresh = try await Content.digest(of: try await backend.readFile(file.id, range: nil).body)
        try Check.expect(
            fresh.sha256 == Content.patternSHA256(seed: 8, size: 1000),
            "a read after the write must see the new content")
    }
}

/// Captures the outcome of an async throwing body.
private func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
