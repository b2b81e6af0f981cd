package import NIOCore

/// Writes one JSON object whose members its caller gives in the order of their keys' UTF-8 bytes, each key once:
/// the bytes `WOPIJSON.encoder` (`.sortedKeys`) writes for the same members, without the `Encoder` protocol, its
/// boxes and its sort. A `nil` member is left out, as `encodeIfPresent` leaves it out.
///
/// For a type whose members are known and few in kind, on the hot path (CheckFileInfo, `CheckFileInfo+JSON.swift`);
/// everything else goes through ``DirectJSONWriter``.
///
/// Not copyable, so that ``finish()`` owns the only reference to the buffer and writes its `}` in place: a copy of
/// the writer left alive would make that write copy every byte before it.
package struct JSONObjectWriter: ~Copyable {
    private var buffer: ByteBuffer
    private var first = true

    package init(capacity: Int) {
        buffer = ByteBuffer()
        buffer.reserveCapacity(capacity)
        buffer.writeInteger(UInt8(ascii: "{"))
    }

    /// An object written after what `buffer` holds: ``finish()`` returns both, as lines of JSON do.
    package init(after buffer: consuming ByteBuffer) {
        // Moved: otherwise a debug build keeps the parameter alive to the end, and the write below copies the buffer.
        self.buffer = consume buffer
        self.buffer.writeInteger(UInt8(ascii: "{"))
    }

    /// The finished object.
    package consuming func finish() -> ByteBuffer {
        buffer.writeInteger(UInt8(ascii: "}"))
        return buffer
    }

    /// Writes `,"key":` and then `literal` (`true`, `false`, or nothing), in one write to the buffer; `key` is plain
    /// ASCII with nothing to escape.
    private mutating func key(_ key: StaticString, then literal: StaticString = "") {
        let comma = first ? 0 : 1
        first = false
        let keyCount = key.utf8CodeUnitCount
        let count = comma + keyCount + 3 + literal.utf8CodeUnitCount
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { output in
            if comma == 1 { output[0] = UInt8(ascii: ",") }
            output[comma] = UInt8(ascii: "\"")
            UnsafeMutableRawBufferPointer(rebasing: output[(comma + 1)...])
                .copyMemory(from: UnsafeRawBufferPointer(start: key.utf8Start, count: keyCount))
            output[comma + 1 + keyCount] = UInt8(ascii: "\"")
            output[comma + 2 + keyCount] = UInt8(ascii: ":")
            UnsafeMutableRawBufferPointer(rebasing: output[(comma + 3 + keyCount)...])
                .copyMemory(from: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
            return count
        }
    }

    private mutating func string(_ value: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            DirectJSONWriter.writeEscaped(UnsafeRawBufferPointer(utf8)) { buffer.writeBytes($0) }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    package mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name, then: value ? "true" : "false")
    }

    package mutating func member(_ name: StaticString, _ value: Int64?) {
        guard let value else { return }
        key(name)
        buffer.writeString(String(value))
    }

    package mutating func member(_ name: StaticString, _ value: Int?) {
        member(name, value.map(Int64.init))
    }

    /// `value` as `JSONEncoder` writes a `Double` (`DirectJSONWriter.number(_:)`); NaN and the infinities throw, as
    /// they do in JSONEncoder.
    package mutating func member(_ name: StaticString, _ value: Double) throws(EncodingError) {
        guard let text = DirectJSONWriter.number(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        key(name)
        buffer.writeString(text)
    }

    package mutating func member(_ name: StaticString, _ value: [String]?) {
        guard let value else { return }
        key(name)
        buffer.writeInteger(UInt8(ascii: "["))
        for (index, element) in value.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            string(element)
        }
        buffer.writeInteger(UInt8(ascii: "]"))
    }

    /// A dictionary's entries in the order of their keys' UTF-8 bytes, as `.sortedKeys` has them.
    package mutating func member(_ name: StaticString, _ value: [String: String]?) {
        guard let value else { return }
        key(name)
        buffer.writeInteger(UInt8(ascii: "{"))
        for (index, entry) in value.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            string(entry.key)
            buffer.writeInteger(UInt8(ascii: ":"))
            string(entry.value)
        }
        buffer.writeInteger(UInt8(ascii: "}"))
    }
}
