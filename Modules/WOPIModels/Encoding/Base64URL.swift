/// Unpadded base64url (RFC 4648 §5), as WOPI access tokens, PKCE and OAuth `state` use it, and secure random
/// strings in that alphabet.
///
/// The codec works on bytes with a lookup table: no Foundation round trip, no string replacement.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The 6-bit value of each alphabet byte; 0xFF for every other byte.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as unpadded base64url, straight into the string's storage.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        // Contiguous bytes (arrays, a string's UTF-8) are read in place; other sequences are copied once.
        if let encoded = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0) }) { return encoded }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Encodes bytes as unpadded base64url (not generic, so callers in other modules run specialised code).
    package static func encode(buffer input: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: encodedCount(input.count)) { write(UnsafeRawBufferPointer(input), to: $0) }
    }

    /// Appends the unpadded base64url of `input` to `output` (a token made in a buffer that is reused).
    package static func append(_ input: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: encodedCount(input.count)) { encoded in
            let count = write(input, to: encoded)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: encoded[..<count]))
        }
    }

    /// How many characters the base64url of `count` bytes has.
    private static func encodedCount(_ count: Int) -> Int { (count * 4 + 2) / 3 }

    /// Writes the unpadded base64url of `input` to `output`, which has room for it; returns the count written.
    private static func write(_ input: UnsafeRawBufferPointer, to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var index = 0
        var written = 0
        func put(_ chunk: UInt32, shift: UInt32) {
            output[written] = alphabet[Int(chunk >> shift & 63)]
            written += 1
        }
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            put(chunk, shift: 18)
            put(chunk, shift: 12)
            put(chunk, shift: 6)
            put(chunk, shift: 0)
            index += 3
        }
        switch input.count - index {
        case 1:
            let chunk = UInt32(input[index]) << 16
            put(chunk, shift: 18)
            put(chunk, shift: 12)
        case 2:
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            put(chunk, shift: 18)
            put(chunk, shift: 12)
            put(chunk, shift: 6)
        default:
            break
        }
        return written
    }

    /// Decodes unpadded base64url.
    ///
    /// Strict: padding, characters outside the alphabet, an impossible length, or unused bits set in the last
    /// character (a second spelling of the same bytes) give `nil`, so one value has exactly one text.
    @inlinable  // specialised where it is called: a token's halves are substrings
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        // Strings and substrings of native strings lend their bytes in place.
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    @usableFromInline
    static func decode(bytes input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var isValid = false
        let output = [UInt8](unsafeUninitializedCapacity: decodedCount(input.count)) { buffer, count in
            let written = decode(input, into: buffer)
            isValid = written != nil
            count = written ?? 0
        }
        return isValid ? output : nil
    }

    /// How many bytes `count` characters of base64url decode to.
    package static func decodedCount(_ count: Int) -> Int { count * 3 / 4 }

    /// Decodes unpadded base64url into `output`, which has room for ``decodedCount(_:)`` bytes (a token's halves
    /// decode into a buffer on the stack); returns how many it wrote, or `nil` as ``decode(_:)`` does.
    package static func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>)
        -> Int?
    {
        guard input.count % 4 != 1, output.count >= decodedCount(input.count) else { return nil }
        var written = 0
        var accumulator: UInt32 = 0
        var bits = 0
        let values = Self.values
        for byte in input {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                written += 1
            }
        }
        // Leftover bits (2 or 4) must be zero for the canonical spelling.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return written
    }

    /// `count` bytes from the system's cryptographically secure generator.
    package static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The base64url text of `byteCount` secure random bytes (`8 × byteCount` bits of entropy).
    package static func randomString(byteCount: Int) -> String {
        encode(randomBytes(byteCount))
    }
}
