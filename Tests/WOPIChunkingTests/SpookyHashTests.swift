import Testing
import WOPIChunking

/// SpookyHash V2 128 with seeds 0, in the validator's byte order. The vectors come from Bob Jenkins' public-domain
/// reference (`SpookyV2.cpp`, `SpookyHash::Hash128`), compiled and run on the same inputs; "foobar" is issue 24's.
struct SpookyHashTests {
    /// `n` bytes of `(i * 7 + 3) % 256`.
    static func pattern(_ n: Int) -> [UInt8] { (0..<n).map { UInt8(($0 * 7 + 3) % 256) } }

    static let vectors: [(Int, String)] = [
        (15, "6fzzpVcl/4BV7XQwMCSRnw=="), (16, "7cTQfE0ja5nX+l0gD4+Aig=="), (31, "DC65idhDzLjFQ8wMOYw7gw=="),
        (32, "9EAOaYWZC+E2LYST8UxVKA=="), (33, "lLcarI81axIHveyM2nF0fQ=="), (191, "BADnIWdVi1pDy3oapou+vw=="),
        (192, "z7mzwR8j1Ut29NZiB0QN9w=="), (193, "wrN0Vr6ej4miGpTwup9S6Q=="), (300, "pLbfyyoq7V+MKj49+i0UEQ=="),
        (1000, "BRulGDItB4VIv7WpLGcSJA=="), (4096, "ELsVsbh+UJsZLm6q7UPYGw=="),
    ]

    @Test func theIssuesVector() {
        #expect(SpookyHash.hash(Array("foobar".utf8)).base64 == "md7tA6VXwIaaYjdO4o8XZQ==")
        #expect(SpookyHash.hash([]).base64 == "GQn1a/wGJyPHUei0Ze5yiw==")
    }

    @Test(arguments: vectors.map(\.0))
    func referenceVectors(_ length: Int) throws {
        let expected = try #require(Self.vectors.first { $0.0 == length }?.1)
        #expect(SpookyHash.hash(Self.pattern(length)).base64 == expected)
    }

    /// Any split of the input gives the one-shot hash, across the short/long boundary and block edges.
    @Test(arguments: [1, 5, 95, 96, 97, 191, 192, 193, 500])
    func streamingInAnySplitMatches(_ step: Int) {
        for (length, expected) in Self.vectors {
            let bytes = Self.pattern(length)
            var hasher = SpookyHash()
            var start = 0
            while start < bytes.count {
                let end = min(start + step, bytes.count)
                hasher.update(Array(bytes[start..<end]))
                start = end
            }
            #expect(hasher.finalize().base64 == expected, "length \(length) in steps of \(step)")
        }
    }

    @Test func chunkIDsRoundTripThroughBase64() throws {
        let id = SpookyHash.hash(Array("foobar".utf8))
        #expect(ChunkID(base64: id.base64) == id)
        #expect(id.bytes.count == 16)
        #expect(ChunkID(base64: "Zm9v") == nil)  // 3 bytes
        #expect(ChunkID(base64: "not base64") == nil)
    }
}
