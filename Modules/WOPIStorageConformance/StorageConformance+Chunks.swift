import Foundation
import NIOCore
import WOPIChunking
package import WOPIStorage

extension StorageConformance {
    /// Cases for a backend that lists content chunks (``ChunkedContentStorage``), on top of ``cases``.
    public static var chunkedContentCases: [StorageConformanceCase] {
        [
            .init("the listed chunks of a zip cover it with no gap and hash to the bytes read back", zipChunks),
            .init("a changed zip entry changes only its own chunk in the list", changedEntry),
            .init("a file that is not a zip is one FullFile chunk, read back across piece borders", fullFileChunk),
        ]
    }

    static func zipChunks(_ backend: any StorageBackend) async throws {
        let backend = try chunked(backend)
        let root = try await root(backend)
        let entries = Zip.entries(sizes: [10, 300_000, 0, 70_000])
        let zip = Zip.archive(entries)
        let file = try await Check.step("createFile with a zip") {
            try await backend.createFile(named: "a.docx", in: root.id, content: Zip.body(zip), overwrite: false)
        }
        let list = try await Check.step("contentChunks(of:)") { try await backend.contentChunks(of: file.id) }
        try Check.expectEqual(list.version, file.version, "the version of the chunk list")
        try Check.expect(list.isZip, "a zip must be listed as cut by the Zip scheme")
        // A header chunk per entry, a data chunk per entry with data (not the empty one), the central directory.
        try Check.expectEqual(list.chunks.count, 4 + 3 + 1, "the number of chunks of the zip")
        try await expectChunks(list, of: file, in: backend, equalTo: zip)
        // Ranges that start inside one chunk and end inside another, several chunks further.
        for range in [20..<60, 40..<300_100, 299_990..<zip.count - 3] {
            let read = try await backend.readFile(file.id, range: Int64(range.lowerBound)..<Int64(range.upperBound))
            let body = try await read.body.collect(upTo: 1 << 24)
            try Check.expectEqual(Array(body.readableBytesView), Array(zip[range]), "the bytes of range \(range)")
        }
    }

    static func changedEntry(_ backend: any StorageBackend) async throws {
        let backend = try chunked(backend)
        let root = try await root(backend)
        var entries = Zip.entries(sizes: [5_000, 90_000, 40_000])
        let file = try await Check.step("createFile with a zip") {
            try await backend.createFile(
                named: "b.xlsx", in: root.id, content: Zip.body(Zip.archive(entries)), overwrite: false)
        }
        let before = try await backend.contentChunks(of: file.id)
        entries[1].data[17] &+= 1
        let archive = Zip.archive(entries)
        let written = try await Check.step("writeFile with one entry changed") {
            try await backend.writeFile(file.id, content: Zip.body(archive), expectedVersion: file.version)
        }
        let after = try await backend.contentChunks(of: file.id)
        try Check.expectEqual(after.version, written.version, "the version of the new chunk list")
        try Check.expectEqual(after.chunks.count, before.chunks.count, "the number of chunks after the change")
        let changed = before.chunks.indices.filter { before.chunks[$0].id != after.chunks[$0].id }
        // Only the second entry's data (chunk 3: header, data, header, data, …); the stand-in central directory
        // holds no CRC.
        try Check.expectEqual(changed, [3], "the chunks whose ID changed")
        try await expectChunks(after, of: written, in: backend, equalTo: archive)
    }

    static func fullFileChunk(_ backend: any StorageBackend) async throws {
        let backend = try chunked(backend)
        let root = try await root(backend)
        let size = 1_100_000
        let file = try await Check.step("createFile with 1.1 MB") {
            try await backend.createFile(
                named: "c.bin", in: root.id, content: Content.pattern(seed: 5, size: size), overwrite: false)
        }
        let list = try await backend.contentChunks(of: file.id)
        try Check.expect(!list.isZip, "a file that is not a zip must be listed as FullFile")
        try Check.expectEqual(list.chunks.count, 1, "the number of FullFile chunks")
        try Check.expectEqual(list.chunks.first?.length, Int64(size), "the length of the FullFile chunk")
        for range in [0..<1, 262_143..<262_145, 100_000..<1_050_000, 1_048_575..<1_100_000] {
            let read = try await backend.readFile(file.id, range: Int64(range.lowerBound)..<Int64(range.upperBound))
            let digest = try await Content.digest(of: read.body)
            try Check.expectEqual(
                digest.sha256, Content.patternSHA256(seed: 5, range: range), "the bytes of range \(range)")
        }
        let empty = try await backend.createFile(named: "d.bin", in: root.id, content: .empty, overwrite: false)
        try Check.expectEqual(try await backend.contentChunks(of: empty.id).chunks, [], "the chunks of an empty file")
    }

    /// Fails unless `list` covers `bytes` with no gap and each chunk, read back as a range, hashes to its ID.
    private static func expectChunks(
        _ list: ContentChunkList, of file: FileMetadata, in backend: any ChunkedContentStorage, equalTo bytes: [UInt8]
    ) async throws {
        var offset: Int64 = 0
        for chunk in list.chunks {
            try Check.expectEqual(chunk.offset, offset, "the offset of a chunk")
            let read = try await backend.readFile(file.id, range: chunk.offset..<(chunk.offset + chunk.length))
            let body = try await read.body.collect(upTo: 1 << 24)
            try Check.expectEqual(
                Array(body.readableBytesView), Array(bytes[Int(offset)..<Int(offset + chunk.length)]),
                "the bytes of the chunk at \(offset)")
            try Check.expectEqual(SpookyHash.hash(body.readableBytesView), chunk.id, "the ID of the chunk at \(offset)")
            offset += chunk.length
        }
        try Check.expectEqual(offset, Int64(bytes.count), "the end of the last chunk")
    }

    private static func chunked(_ backend: any StorageBackend) throws -> any ChunkedContentStorage {
        try Check.require(backend as? any ChunkedContentStorage, "the backend must conform to ChunkedContentStorage")
    }
}

/// Small stored (uncompressed) zips for the chunk cases: local headers and data, then a stand-in central
/// directory, which the `Zip` scheme cuts as one chunk whatever it holds. Backend tests use them too.
package enum Zip {
    package struct Entry {
        package var name: String
        package var data: [UInt8]
    }

    /// Entries `0.txt`, `1.txt`, … of generated bytes of `sizes`.
    package static func entries(sizes: [Int]) -> [Entry] {
        sizes.enumerated().map { index, size in
            Entry(name: "\(index).txt", data: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9 &+ index) })
        }
    }

    /// The zip of `entries`.
    package static func archive(_ entries: [Entry]) -> [UInt8] {
        var bytes: [UInt8] = []
        func integer(_ value: Int, _ count: Int) {
            for shift in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * shift))) }
        }
        for entry in entries {
            bytes += [0x50, 0x4B, 0x03, 0x04]
            integer(20, 2)  // version needed
            integer(0, 2)  // flags
            integer(0, 2)  // stored
            integer(0, 4)  // time and date
            integer(0, 4)  // CRC-32 (not checked by the chunker)
            integer(entry.data.count, 4)
            integer(entry.data.count, 4)
            integer(entry.name.utf8.count, 2)
            integer(0, 2)
            bytes += Array(entry.name.utf8)
            bytes += entry.data
        }
        bytes += [0x50, 0x4B, 0x01, 0x02] + Array("central directory stand-in".utf8)
        return bytes
    }

    /// A body of `bytes` in pieces of 64 KiB + 7.
    package static func body(_ bytes: [UInt8]) -> ByteStream {
        ByteStream(knownLength: Int64(bytes.count)) {
            var offset = 0
            return {
                guard offset < bytes.count else { return nil }
                let end = min(offset + 64 * 1024 + 7, bytes.count)
                defer { offset = end }
                return ByteBuffer(bytes: bytes[offset..<end])
            }
        }
    }
}
