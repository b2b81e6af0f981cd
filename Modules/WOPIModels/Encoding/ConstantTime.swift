/// Comparisons whose time does not depend on where two secrets differ.
package enum ConstantTime {
    /// Whether two byte sequences are equal; the time depends only on their lengths.
    package static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }

    /// Whether two buffers hold the same bytes; the time depends only on their lengths (not generic, so callers in
    /// other modules run specialised code).
    package static func equals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.count { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }

    /// Whether two strings have the same UTF-8 bytes; the time depends only on their lengths.
    package static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(lhs.utf8, rhs.utf8)
    }
}
