import Foundation
import Testing
import WOPIStorage
import WOPITestSupport

@testable import FUSEMount

extension RealMountTests {
    /// fsx-style: a seeded sequence of 10,000 POSIX operations (pwrite, pread, ftruncate to shrink or extend, lseek
    /// with write or read, fstat, fsync, close and reopen) on a mounted file, checked step by step against a local
    /// file as the model.
    @Suite struct RandomIOTests {
        static let seed: UInt64 = 0x5EED_F05E
        static let operationCount = 10_000

        @Test func randomReadsWritesTruncatesAndSeeksMatchALocalFile() async throws {
            try await withMount { fixture in
                let mounted = fixture.path("random.bin")
                let reference = fixture.directory + "/reference.bin"
                let mismatch = try await blocking { Self.run(mounted: mounted, reference: reference) }
                #expect(mismatch == nil, "seed \(Self.seed): \(mismatch ?? "")")

                let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: reference)))
                let stored = try #require(try await fixture.item(at: "random.bin"))
                #expect(try await fixture.content(of: stored.id) == expected, "the backend holds the final content")
                let reread = try await blocking { try POSIX.readFile(mounted) }
                #expect(reread == expected)
            }
        }

        /// Runs the sequence; returns a description of the first difference, or `nil`.
        private static func run(mounted: String, reference: String) -> String? {
            var random = SeededGenerator(seed: seed)
            var fd = open(mounted, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            let ref = open(reference, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0, ref >= 0 else { return "open failed: errno \(errno)" }
            defer { close(ref) }
            let limit = 1 << 20
            func size(_ descriptor: Int32) -> Int {
                var info = stat()
                fstat(descriptor, &info)
                return Int(info.st_size)
            }
            func randomBytes(_ count: Int) -> [UInt8] {
                var bytes = [UInt8](repeating: 0, count: (count + 7) & ~7)
                bytes.withUnsafeMutableBytes { raw in
                    for index in 0..<(raw.count / 8) {
                        raw.storeBytes(of: random.next(), toByteOffset: index * 8, as: UInt64.self)
                    }
                }
                return Array(bytes.prefix(count))
            }
            for step in 0..<operationCount {
                let current = size(ref)
                let choice = Int.random(in: 0..<100, using: &random)
                switch choice {
                case 0..<35:
                    let offset = Int.random(in: 0...min(current + 4096, limit), using: &random)
                    let bytes = randomBytes(Int.random(in: 1...32768, using: &random))
                    let a = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(offset)) }
                    let b = bytes.withUnsafeBytes { pwrite(ref, $0.baseAddress!, $0.count, off_t(offset)) }
                    if a != b {
                        return "step \(step): pwrite(\(bytes.count) at \(offset)) gave \(a) vs \(b), errno \(errno)"
                    }
                case 35..<65:
                    let offset = Int.random(in: 0...(current + 100), using: &random)
                    let count = Int.random(in: 1...65536, using: &random)
                    var x = [UInt8](repeating: 0, count: count)
                    var y = [UInt8](repeating: 0, count: count)
                    let a = x.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, off_t(offset)) }
                    let b = y.withUnsafeMutableBytes { pread(ref, $0.baseAddress!, count, off_t(offset)) }
                    if a != b || x != y {
                        return "step \(step): pread(\(count) at \(offset)) gave \(a) vs \(b) bytes, equal: \(x == y)"
                    }
                case 65..<73:
                    let length = Int.random(in: 0...(current + current / 5 + 1000), using: &random)
                    let a = ftruncate(fd, off_t(length))
                    let b = ftruncate(ref, off_t(length))
                    if a != b { return "step \(step): ftruncate(\(length)) gave \(a) vs \(b), errno \(errno)" }
                case 73..<88:
                    let whence = [SEEK_SET, SEEK_CUR, SEEK_END][Int.random(in: 0..<3, using: &random)]
                    let delta =
                        whence == SEEK_SET
                        ? Int.random(in: 0...current, using: &random) : Int.random(in: -100...100, using: &random)
                    let a = lseek(fd, off_t(delta), whence)
                    let b = lseek(ref, off_t(delta), whence)
                    if a != b { return "step \(step): lseek(\(delta), \(whence)) gave \(a) vs \(b)" }
                    if a < 0 { continue }
                    if Bool.random(using: &random) {
                        let bytes = randomBytes(Int.random(in: 1...8192, using: &random))
                        let wa = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                        let wb = bytes.withUnsafeBytes { write(ref, $0.baseAddress!, $0.count) }
                        if wa != wb { return "step \(step): write after seek gave \(wa) vs \(wb)" }
                    } else {
                        let count = Int.random(in: 1...8192, using: &random)
                        var x = [UInt8](repeating: 0, count: count)
                        var y = [UInt8](repeating: 0, count: count)
                        let ra = x.withUnsafeMutableBytes { read(fd, $0.baseAddress!, count) }
                        let rb = y.withUnsafeMutableBytes { read(ref, $0.baseAddress!, count) }
                        if ra != rb || x != y {
                            return "step \(step): read after seek gave \(ra) vs \(rb), equal \(x == y)"
                        }
                    }
                case 88..<94:
                    if size(fd) != current { return "step \(step): fstat size \(size(fd)) vs \(current)" }
                case 94..<97:
                    if fsync(fd) != 0 { return "step \(step): fsync failed, errno \(errno)" }
                default:
                    let position = lseek(ref, 0, SEEK_CUR)
                    if close(fd) != 0 { return "step \(step): close failed, errno \(errno)" }
                    fd = open(mounted, O_RDWR | O_CLOEXEC)
                    if fd < 0 { return "step \(step): reopen failed, errno \(errno)" }
                    lseek(fd, position, SEEK_SET)
                }
            }
            if close(fd) != 0 { return "final close failed, errno \(errno)" }
            return nil
        }
    }
}
