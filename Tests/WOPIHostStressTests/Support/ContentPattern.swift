import Foundation
import NIOCore
import WOPIStorage
import WOPITestSupport

/// Recognisable, reproducible file content: version `version` of test file `file`, `size` bytes long.
///
/// The content is cut in 64 KiB blocks. Each block starts with a 64-byte ASCII marker naming the file, the
/// version, the block index and the total size, followed by pseudo-random bytes seeded by (file, version). A
/// body can therefore say which version it claims to be (``Marker/parse(_:)``), and its SHA-256 tells whether
/// it is exactly that version: a torn body (blocks of two versions, a short or a long one) never matches.
struct ContentPattern: Hashable, Sendable {
    static let blockSize = 64 * 1024
    static let markerSize = 64

    let file: Int
    let version: Int
    let size: Int

    /// What the first block of a body says about it.
    struct Marker: Hashable, Sendable {
        let file: Int
        let version: Int
        let size: Int

        /// Reads the marker at the start of `prefix` (at least ``ContentPattern/markerSize`` bytes).
        static func parse(_ prefix: ByteBuffer) -> Marker? {
            guard let text = prefix.getString(at: prefix.readerIndex, length: min(markerSize, prefix.readableBytes))
            else { return nil }
            let fields = text.split(separator: " ")
            func value(_ name: String) -> Int? {
                fields.first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) }
            }
            guard fields.first == "WOPIKIT", let file = value("f"), let version = value("v"), let size = value("n")
            else { return nil }
            return Marker(file: file, version: version, size: size)
        }
    }

    var marker: Marker { Marker(file: file, version: version, size: size) }

    /// The pseudo-random bytes every block of this version carries after its marker.
    func page() -> ByteBuffer {
        var random = SeededGenerator(seed: UInt64(truncatingIfNeeded: file &* 1_000_003 &+ version))
        var page = ByteBuffer()
        page.reserveCapacity(Self.blockSize)
        while page.readableBytes < Self.blockSize - Self.markerSize { page.writeInteger(random.next()) }
        return page
    }

    /// Block `index` of the content (the last one may be short), made of its marker and `page`.
    func block(_ index: Int, page: ByteBuffer) -> ByteBuffer {
        let length = min(Self.blockSize, size - index * Self.blockSize)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(Self.blockSize)
        let header = "WOPIKIT f=\(file) v=\(version) k=\(index) n=\(size) "
        buffer.writeString(header.padding(toLength: Self.markerSize - 1, withPad: ".", startingAt: 0) + "\n")
        buffer.writeImmutableBuffer(page)
        buffer.moveWriterIndex(to: buffer.readerIndex + length)
        return buffer
    }

    private var blockCount: Int { (size + Self.blockSize - 1) / Self.blockSize }

    /// The content as a stream of blocks, generated as it is consumed.
    var stream: ByteStream { stream(beforeBlockAt: { _ in }) }

    /// The content as a stream of blocks, generated as it is consumed; `beforeBlockAt` is told the offset of each
    /// block before the block is made.
    func stream(beforeBlockAt: @escaping @Sendable (_ offset: Int) -> Void) -> ByteStream {
        ByteStream(knownLength: Int64(size)) {
            var next = 0
            var page: ByteBuffer?
            return {
                guard next < blockCount else { return nil }
                beforeBlockAt(next * Self.blockSize)
                defer { next += 1 }
                if page == nil { page = self.page() }
                return block(next, page: page!)
            }
        }
    }

    /// The SHA-256 of the content.
    var sha256: Data {
        var digest = ContentDigest()
        let page = self.page()
        for index in 0..<blockCount { digest.update(block(index, page: page)) }
        return digest.finalize()
    }

    /// Writes the content to a local file, block by block.
    func write(to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try Foundation.FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let page = self.page()
        for index in 0..<blockCount {
            try block(index, page: page).withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
        }
    }
}
