import Foundation

/// A chunk's ID (`ChunkId`): the 16 bytes of its ``SpookyHash``, written in JSON as base64.
public struct ChunkID: Hashable, Sendable, CustomStringConvertible {
    /// The length of an ID in bytes.
    public static let length = 16

    /// The 16 bytes.
    public let bytes: [UInt8]

    /// The ID of these 16 bytes, or `nil` when there are not exactly 16.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.length else { return nil }
        self.bytes = Array(bytes)
    }

    /// The ID of a base64 text (`md7tA6VXwIaaYjdO4o8XZQ==`), or `nil` when it is not 16 bytes of base64.
    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64) else { return nil }
        self.init(bytes: data)
    }

    /// The two 64-bit halves of a hash, each little-endian, the first first (the validator's layout).
    init(first: UInt64, second: UInt64) {
        bytes =
            withUnsafeBytes(of: first.littleEndian, Array.init) + withUnsafeBytes(of: second.littleEndian, Array.init)
    }

    /// The base64 text, as JSON bodies carry it.
    public var base64: String { Data(bytes).base64EncodedString() }

    public var description: String { base64 }
}
