import Foundation
import NIOCore
import S3ObjectStore
import Testing

@Suite("S3ObjectStore on Ceph's RADOS Gateway: objects")
struct LiveObjectTests {
    @Test("put, get, head and delete an object")
    func roundTrip() async throws {
        try await LiveCeph.withBucket("objects") { store in
            #expect(try await store.headBucket())
            let outcome = try await store.putObject(
                "docs/report 1+2=ü.txt", body: ByteBuffer(string: "hello, ceph"), contentType: "text/plain")
            let etag = try #require(outcome.etag)
            #expect(etag == "\"\(md5Hex("hello, ceph"))\"")
            let info = try #require(try await store.headObject("docs/report 1+2=ü.txt"))
            #expect(info.size == 11)
            #expect(info.etag == etag)
            #expect(info.contentType == "text/plain")
            #expect(info.lastModified.map { abs($0.timeIntervalSinceNow) < 600 } == true)
            let object = try #require(try await store.getObject("docs/report 1+2=ü.txt"))
            #expect(object.info.size == 11)
            #expect(object.info.etag == etag)
            #expect(object.range == nil)
            #expect(String(buffer: try await object.body.collect(upTo: 1024)) == "hello, ceph")
            try await store.deleteObject("docs/report 1+2=ü.txt")
            #expect(try await store.headObject("docs/report 1+2=ü.txt") == nil)
            #expect(try await store.getObject("docs/report 1+2=ü.txt") == nil)
            try await store.deleteObject("docs/report 1+2=ü.txt")  // a missing object deletes fine
        }
    }

    @Test("ranged reads: a middle, an open end, a suffix, and past the end")
    func rangedGet() async throws {
        try await LiveCeph.withBucket("ranges") { store in
            let content = String((0..<1000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            try await store.putObject("alphabet", body: ByteBuffer(string: content))
            let middle = try #require(try await store.getObject("alphabet", range: .bytes(10...19)))
            #expect(middle.range == 10...19)
            #expect(middle.info.size == 1000)
            #expect(middle.body.length == 10)
            #expect(String(buffer: try await middle.body.collect(upTo: 100)) == "klmnopqrst")
            let tail = try #require(try await store.getObject("alphabet", range: .from(995)))
            #expect(tail.range == 995...999)
            #expect(String(buffer: try await tail.body.collect(upTo: 100)) == String(content.suffix(5)))
            let suffix = try #require(try await store.getObject("alphabet", range: .last(3)))
            #expect(String(buffer: try await suffix.body.collect(upTo: 100)) == String(content.suffix(3)))
            let error = await #expect(throws: S3Error.self) {
                _ = try await store.getObject("alphabet", range: .from(5000))
            }
            #expect(error?.code == .invalidRange)
            #expect(error?.status == 416)
        }
    }

    @Test("16 concurrent If-None-Match: * PUTs of one key: exactly one is stored")
    func conditionalPutRace() async throws {
        try await LiveCeph.withBucket("race") { store in
            let outcomes = try await withThrowingTaskGroup(of: (Int, S3PutOutcome).self) { group in
                for writer in 0..<16 {
                    group.addTask {
                        let outcome = try await store.putObject(
                            "lock", body: ByteBuffer(string: "writer \(writer)"), condition: .ifNoneMatch)
                        return (writer, outcome)
                    }
                }
                return try await group.reduce(into: [(Int, S3PutOutcome)]()) { $0.append($1) }
            }
            let winners = outcomes.filter { $0.1 != .preconditionFailed }
            #expect(winners.count == 1)
            #expect(outcomes.count == 16)
            let winner = try #require(winners.first)
            let stored = try #require(try await store.getObject("lock"))
            #expect(String(buffer: try await stored.body.collect(upTo: 100)) == "writer \(winner.0)")
            #expect(stored.info.etag == winner.1.etag)
            // If-Match: replaces the version read, refuses a stale one.
            let replaced = try await store.putObject(
                "lock", body: ByteBuffer(string: "next"), condition: .ifMatch(stored.info.etag))
            #expect(replaced.etag != nil)
            let stale = try await store.putObject(
                "lock", body: ByteBuffer(string: "stale"), condition: .ifMatch(stored.info.etag))
            #expect(stale == .preconditionFailed)
        }
    }

    @Test("a stream of known length in one PUT, signed UNSIGNED-PAYLOAD")
    func streamedPut() async throws {
        try await LiveCeph.withBucket("stream") { store in
            let chunks = (0..<16).map { ByteBuffer(repeating: UInt8($0), count: 64 << 10) }
            let outcome = try await store.putObject(
                "streamed.bin", body: Chunks(chunks), length: 16 * (64 << 10), contentType: "application/octet-stream")
            #expect(outcome.etag?.isEmpty == false)
            let object = try #require(try await store.getObject("streamed.bin"))
            var received = 0
            var chunkCount = 0
            for try await chunk in object.body {
                for (offset, byte) in chunk.readableBytesView.enumerated() {
                    guard byte != UInt8((received + offset) / (64 << 10)) else { continue }
                    Issue.record("byte \(received + offset) is \(byte)")
                    break
                }
                received += chunk.readableBytes
                chunkCount += 1
            }
            #expect(received == 16 * (64 << 10))
            #expect(chunkCount > 1, "the body streams in several chunks")
        }
    }
}

/// An async sequence over chunks already made (the body of a test).
struct Chunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunks: [ByteBuffer]

    init(_ chunks: [ByteBuffer]) { self.chunks = chunks }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...]) }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<ByteBuffer>
        mutating func next() async -> ByteBuffer? { remaining.popFirst() }
    }
}
