import FileSystemStorage
import Foundation
import NIOCore
import Synchronization
import Testing
import WOPIStorage
import WOPITestSupport

@testable import FUSEMount

/// The read-only handle's stream, over a real `FileSystemStorage` (256 KiB chunks), checked byte for byte
/// against the file it wrote, and by how many streams it had to open.
struct StreamingReaderTests {
    static let piece = 128 * 1024

    struct Fixture {
        let directory: TemporaryDirectory
        let storage: FileSystemStorage
        let file: FileMetadata
        let bytes: [UInt8]

        init(size: Int, seed: UInt64 = 7) async throws {
            directory = try TemporaryDirectory()
            storage = try FileSystemStorage(root: directory.url)
            var generator = SeededGenerator(seed: seed)
            bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                for start in stride(from: 0, to: size, by: 8) {
                    withUnsafeBytes(of: generator.next()) { random in
                        for index in 0..<min(8, size - start) { buffer[start + index] = random[index] }
                    }
                }
                count = size
            }
            let root = try await storage.rootContainer(forUser: "alice")
            file = try await storage.createFile(
                named: "data.bin", in: root.id, content: ByteStream(buffer: ByteBuffer(bytes: bytes)), overwrite: false)
        }

        func expected(_ offset: Int, _ count: Int) -> [UInt8] {
            let lower = min(offset, bytes.count)
            return Array(bytes[lower..<min(offset + count, bytes.count)])
        }
    }

    @Test("a sequential read in kernel-sized pieces uses one stream and returns every byte, short at the end")
    func sequentialReadUsesOneStream() async throws {
        let fixture = try await Fixture(size: 3 * 1024 * 1024 + 1000)
        defer { fixture.directory.remove() }
        let reader = StreamingReader(backend: fixture.storage, itemID: fixture.file.id)
        var offset = 0
        while offset < fixture.bytes.count {
            let got = try await reader.read(at: Int64(offset), count: Self.piece)
            #expect(got == fixture.expected(offset, Self.piece), "at \(offset)")
            offset += Self.piece
        }
        #expect(try await reader.read(at: Int64(offset), count: Self.piece).isEmpty, "past the end")
        #expect(await reader.streamsOpened == 1)
    }

    @Test("reads slightly out of order and short jumps ahead stay on the stream; far jumps and going back reopen")
    func outOfOrderAndJumps() async throws {
        let fixture = try await Fixture(size: 24 * 1024 * 1024)
        defer { fixture.directory.remove() }
        let reader = StreamingReader(backend: fixture.storage, itemID: fixture.file.id)
        let mib = 1024 * 1024
        let plan: [(offset: Int, streams: Int)] = [
            (0, 1), (2 * Self.piece, 1), (Self.piece, 1),  // the kernel's readahead, out of order: one stream
            (6 * mib, 1),  // a short jump ahead reads on
            (6 * mib - StreamingReader.window / 2, 1),  // back within the window (4 MiB): from memory
            (mib, 2),  // back beyond the window: reopens
            (mib + Int(StreamingReader.maximumSkip) + 4 * mib, 3),  // further ahead than maximumSkip: reopens
            (24 * mib - 100, 3),  // the last bytes, 3 MiB on: reads on, short
        ]
        for step in plan {
            let got = try await reader.read(at: Int64(step.offset), count: Self.piece)
            #expect(got == fixture.expected(step.offset, Self.piece), "at \(step.offset)")
            #expect(await reader.streamsOpened == step.streams, "streams after reading at \(step.offset)")
        }
    }

    @Test("concurrent reads of one handle are served one at a time and all get their own bytes")
    func concurrentReads() async throws {
        let fixture = try await Fixture(size: 2 * 1024 * 1024)
        defer { fixture.directory.remove() }
        let reader = StreamingReader(backend: fixture.storage, itemID: fixture.file.id)
        let offsets = stride(from: 0, to: fixture.bytes.count, by: Self.piece).map { $0 }
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for offset in offsets {
                group.addTask { (offset, try await reader.read(at: Int64(offset), count: Self.piece)) }
            }
            return try await group.reduce(into: [Int: [UInt8]]()) { $0[$1.0] = $1.1 }
        }
        for offset in offsets { #expect(results[offset] == fixture.expected(offset, Self.piece), "at \(offset)") }
    }

    @Test("a new generation (the file was saved through the mount) reopens the stream and reads the new content")
    func newGenerationReopens() async throws {
        let fixture = try await Fixture(size: 512 * 1024)
        defer { fixture.directory.remove() }
        let reader = StreamingReader(backend: fixture.storage, itemID: fixture.file.id)
        #expect(try await reader.read(at: 0, count: 4, generation: 0) == fixture.expected(0, 4))
        _ = try await fixture.storage.writeFile(
            fixture.file.id, content: ByteStream(buffer: ByteBuffer(string: "new content")), expectedVersion: nil)
        #expect(try await reader.read(at: 4, count: 4, generation: 0) == fixture.expected(4, 4), "one version")
        #expect(try await reader.read(at: 0, count: 100, generation: 1) == Array("new content".utf8))
        #expect(await reader.streamsOpened == 2)
    }
}

extension StreamingReaderTests {
    @Test("a kept stream that fails is reopened at the wanted offset, once; when that one fails too, the read fails")
    func failedStreamIsReopenedOnce() async throws {
        let fixture = try await Fixture(size: 2 * 1024 * 1024)
        defer { fixture.directory.remove() }
        struct Dropped: Error {}
        let failures = Mutex(1)  // how many streams still fail after their first chunk
        let storage = InterceptingStorage(
            base: fixture.storage,
            content: { content in
                let failing = failures.withLock { remaining in
                    defer { remaining -= 1 }
                    return remaining > 0
                }
                guard failing else { return content }
                return FileContent(
                    metadata: content.metadata,
                    body: ByteStream {
                        var iterator = content.body.makeAsyncIterator()
                        var delivered = false
                        return {
                            guard !delivered else { throw Dropped() }
                            delivered = true
                            return try await iterator.next()
                        }
                    })
            }, intercept: { _ in })
        let reader = StreamingReader(backend: storage, itemID: fixture.file.id)
        // The first chunk (256 KiB) serves two reads; the third needs more, the kept stream fails, a new one opens.
        for offset in [0, Self.piece, 2 * Self.piece, 3 * Self.piece] {
            #expect(try await reader.read(at: Int64(offset), count: Self.piece) == fixture.expected(offset, Self.piece))
        }
        #expect(await reader.streamsOpened == 2)

        // When the reopened stream fails too, the read is not retried again: the error reaches the caller.
        failures.withLock { $0 = 2 }
        let fresh = StreamingReader(backend: storage, itemID: fixture.file.id)
        _ = try await fresh.read(at: 0, count: Self.piece)
        await #expect(throws: Dropped.self) { try await fresh.read(at: 0, count: 1024 * 1024) }
    }
}

extension StreamingReaderTests {
    @Test("after a read fails, the next read opens a new stream rather than reporting the end of the file")
    func failureNeverLooksLikeTheEnd() async throws {
        let fixture = try await Fixture(size: 1024 * 1024)
        defer { fixture.directory.remove() }
        struct Refused: Error {}
        let refusing = Mutex(false)
        let storage = InterceptingStorage(base: fixture.storage) { _ in
            if refusing.withLock({ $0 }) { throw Refused() }
        }
        let reader = StreamingReader(backend: storage, itemID: fixture.file.id)
        #expect(try await reader.read(at: 0, count: Self.piece) == fixture.expected(0, Self.piece))
        let position = 2 * Self.piece  // one 256 KiB chunk has been read
        refusing.withLock { $0 = true }
        // A new generation makes the reader reopen, and the backend refuses.
        await #expect(throws: Refused.self) { try await reader.read(at: 0, count: Self.piece, generation: 1) }
        refusing.withLock { $0 = false }
        // The same offset and generation as the stream before the failure: it must reopen, not answer "end of file".
        let got = try await reader.read(at: Int64(position), count: Self.piece, generation: 0)
        #expect(got == fixture.expected(position, Self.piece))
    }
}
