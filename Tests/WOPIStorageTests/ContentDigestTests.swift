import Foundation
import NIOCore
import Testing
import WOPIStorage

@Suite("ContentDigest")
struct ContentDigestTests {
    @Test func chunkedDigestEqualsOneShotSHA256() {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var digest = ContentDigest()
        var offset = 0
        for size in [1, 999, 4096, 65_536] where offset < bytes.count {
            let end = min(offset + size, bytes.count)
            digest.update(ByteBuffer(bytes: bytes[offset..<end]))
            offset = end
        }
        digest.update(ByteBuffer(bytes: bytes[offset...]))
        #expect(digest.byteCount == Int64(bytes.count))
        var oneShot = ContentDigest()
        oneShot.update(ByteBuffer(bytes: bytes))
        #expect(digest.finalize() == oneShot.finalize())
    }

    @Test func sharedDigestOfBatchesHashedByJobsInTurnEqualsOneShot() async {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let shared = SharedContentDigest()
        // Batches of a few buffers each, each hashed by a job on the global executor once the previous one ended, as
        // the backends do.
        var offset = 0
        for batchSize in [3, 1, 5, 2] {
            var batch: [ByteBuffer] = []
            for _ in 0..<batchSize where offset < bytes.count {
                let end = min(offset + 17_000, bytes.count)
                batch.append(ByteBuffer(bytes: bytes[offset..<end]))
                offset = end
            }
            await Task(executorPreference: globalConcurrentExecutor) { [batch] in shared.update(batch) }.value
        }
        shared.update([ByteBuffer(bytes: bytes[offset...])])
        var oneShot = ContentDigest()
        oneShot.update(ByteBuffer(bytes: bytes))
        let result = shared.result
        #expect(result.byteCount == Int64(bytes.count))
        #expect(result.sha256 == oneShot.finalize())
    }

    @Test func knownVectors() {
        #expect(
            ContentDigest.emptySHA256.hexString
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var digest = ContentDigest()
        digest.update(ByteBuffer(string: "abc"))
        #expect(digest.finalize().hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest.byteCount == 3)
    }
}

extension Data {
    fileprivate var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
