import Foundation
import Testing
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `StreamingWrite` hands a file to the disk every `syncInterval` bytes, and only then.
@Suite struct StreamingWriteTests {
    @Test func handsTheFileToTheDiskOnlyOnceAnIntervalIsAppended() throws {
        // A descriptor that is not open: any call on it fails, so the first call shows when the disk is asked.
        var writeback = StreamingWrite(descriptor: 1_000_000, path: "missing.tmp")
        try writeback.appended(Int(StreamingWrite.syncInterval) - 1)
        try writeback.appended(0)
        #expect(throws: POSIXFailure.self) { try writeback.appended(1) }
    }

    @Test func failuresNameTheFile() throws {
        var writeback = StreamingWrite(descriptor: 1_000_000, path: "missing.tmp")
        let failure = try #require(throws: POSIXFailure.self) {
            try writeback.appended(Int(StreamingWrite.syncInterval))
        }
        #expect(failure.errno == EBADF)
        #expect(failure.operation.contains("missing.tmp"))
    }

    @Test func aFileWrittenThroughItReadsBackWhole() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("streaming-\(UUID()).bin").path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(fd >= 0)
        defer {
            close(fd)
            unlink(path)
        }
        var writeback = StreamingWrite(descriptor: fd, path: path)
        let block = [UInt8](repeating: 0xA5, count: 1 << 20)
        for _ in 0..<(3 * Int(StreamingWrite.syncInterval >> 20) + 1) {
            #expect(block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == block.count)
            try writeback.appended(block.count)
        }
        #expect(fsync(fd) == 0)
        var status = stat()
        #expect(fstat(fd, &status) == 0)
        #expect(Int64(status.st_size) == 3 * StreamingWrite.syncInterval + (1 << 20))
    }
}
