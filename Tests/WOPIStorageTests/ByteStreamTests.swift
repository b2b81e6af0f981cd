import NIOCore
import Testing
import WOPIStorage

@Suite("ByteStream")
struct ByteStreamTests {
    @Test func chunksStreamInOrderWithTheirLength() async throws {
        let stream = ByteStream(chunks: [ByteBuffer(string: "ab"), ByteBuffer(string: "cde")])
        #expect(stream.knownLength == 5)
        var seen: [String] = []
        for try await chunk in stream { seen.append(String(buffer: chunk)) }
        #expect(seen == ["ab", "cde"])
    }

    @Test func emptyChunksAreSkipped() async throws {
        let stream = ByteStream(chunks: [ByteBuffer(), ByteBuffer(string: "x"), ByteBuffer(), ByteBuffer(string: "y")])
        var count = 0
        for try await chunk in stream {
            #expect(chunk.readableBytes > 0)
            count += 1
        }
        #expect(count == 2)
        #expect(ByteStream(buffer: ByteBuffer()).knownLength == 0)
        #expect(try await ByteStream.empty.collect(upTo: 10).readableBytes == 0)
    }

    @Test func collectEnforcesItsLimit() async throws {
        let stream = ByteStream(chunks: [ByteBuffer(string: "12345"), ByteBuffer(string: "678")])
        #expect(String(buffer: try await stream.collect(upTo: 8)) == "12345678")
        let error = await #expect(throws: StorageError.self) { try await stream.collect(upTo: 7) }
        #expect(error?.code == .tooLarge)
    }

    @Test func wrapsAnAsyncSequenceAndPropagatesItsError() async throws {
        struct Boom: Error {}
        let (base, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        continuation.yield(ByteBuffer(string: "first"))
        continuation.finish(throwing: Boom())
        let stream = ByteStream(base, knownLength: nil)
        #expect(stream.knownLength == nil)
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next().map { String(buffer: $0) } == "first")
        await #expect(throws: Boom.self) { _ = try await iterator.next() }
    }

    @Test func closureStreamsCallTheProducerPerPass() async throws {
        let stream = ByteStream(knownLength: 3) {
            var left = 3
            return {
                guard left > 0 else { return nil }
                left -= 1
                return ByteBuffer(string: "z")
            }
        }
        #expect(String(buffer: try await stream.collect(upTo: 10)) == "zzz")
        #expect(String(buffer: try await stream.collect(upTo: 10)) == "zzz")
    }
}
