import Foundation

/// Writes the bytes `WOPIJSON.encoder` writes (sorted keys, slashes unescaped, no spaces) straight from a value's
/// `encode(to:)`, without `JSONEncoder`'s intermediate tree: what every CheckFileInfo answer is made of.
///
/// It writes strings, booleans, integers, `nil`, and objects and arrays of them, which is every WOPI body. A value
/// holding anything else (a floating-point number, a `Date`, `Data`, a `URL`, which `JSONEncoder` formats by its
/// own rules) makes ``bytes(of:)`` throw ``Unsupported``, and ``WOPIResponse/json(_:status:headers:)`` falls back
/// to `JSONEncoder`. `DirectJSONWriterTests` proves the bytes equal `JSONEncoder`'s for every CheckFileInfo property.
package final class DirectJSONWriter: Encoder {
    /// The value holds something this writer leaves to `JSONEncoder`.
    package struct Unsupported: Error {}

    /// The JSON of `value`.
    package static func bytes<Value: Encodable>(of value: Value) throws -> [UInt8] {
        let writer = DirectJSONWriter()
        try value.encode(to: writer)
        return try writer.finished()
    }

    private enum Shape { case unknown, object, array, scalar }

    package var codingPath: [any CodingKey] { [] }
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    private var shape = Shape.unknown
    /// The written values: the scalar, the array's elements with their commas, or the object's values.
    fileprivate var scratch: [UInt8] = []
    /// The object's members, by key, each its value's bytes in `scratch`.
    private var members: [(key: String, value: Range<Int>)] = []
    /// The array's elements so far.
    fileprivate private(set) var count = 0

    fileprivate init() {}

    /// Set when the value asks for what this writer does not write (a nested or super encoder).
    fileprivate var abandoned = false

    /// A container that goes nowhere, for a value this writer gives up on.
    fileprivate func abandon() -> DirectJSONWriter {
        abandoned = true
        return DirectJSONWriter()
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        enter(.object)
        return KeyedEncodingContainer(ObjectContainer<Key>(writer: self))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        enter(.array)
        return ArrayContainer(writer: self)
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer {
        enter(.scalar)
        return ScalarContainer(writer: self)
    }

    /// A second container of another shape is JSONEncoder's business (it fails or merges by its own rules).
    private func enter(_ shape: Shape) {
        if self.shape == .unknown || self.shape == shape { self.shape = shape } else { self.shape = .unknown }
    }

    /// Writes an object member: `write` appends its value to `scratch`.
    fileprivate func member(_ key: String, _ write: () throws -> Void) rethrows {
        let start = scratch.count
        try write()
        members.append((key, start..<scratch.count))
    }

    /// Writes an array element: `write` appends it to `scratch`.
    fileprivate func element(_ write: () throws -> Void) rethrows {
        if count > 0 { scratch.append(UInt8(ascii: ",")) }
        count += 1
        try write()
    }

    private func finished() throws -> [UInt8] {
        if abandoned { throw Unsupported() }
        switch shape {
        case .unknown:
            throw Unsupported()
        case .scalar:
            guard !scratch.isEmpty else { throw Unsupported() }
            return scratch
        case .array:
            return [UInt8(ascii: "[")] + scratch + [UInt8(ascii: "]")]
        case .object:
            // Keys in String order, as JSONEncoder's `.sortedKeys` has them; a key written twice keeps its last value.
            let sorted = members.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
            var output: [UInt8] = [UInt8(ascii: "{")]
            output.reserveCapacity(scratch.count + members.count * 24 + 2)
            var index = sorted.startIndex
            while index < sorted.endIndex {
                var last = index
                while last + 1 < sorted.endIndex, sorted[last + 1].element.key == sorted[index].element.key {
                    last += 1
                }
                if output.count > 1 { output.append(UInt8(ascii: ",")) }
                Self.writeString(sorted[last].element.key, into: &output)
                output.append(UInt8(ascii: ":"))
                output.append(contentsOf: scratch[sorted[last].element.value])
                index = last + 1
            }
            output.append(UInt8(ascii: "}"))
            return output
        }
    }

    // MARK: Scalars

    fileprivate func write(_ value: String) { Self.writeString(value, into: &scratch) }

    fileprivate func write(_ value: Bool) { scratch.append(contentsOf: value ? Self.true : Self.false) }

    fileprivate func writeNil() { scratch.append(contentsOf: Self.null) }

    fileprivate func writeInteger<Integer: FixedWidthInteger>(_ value: Integer) throws {
        guard Integer.bitWidth <= 64 else { throw Unsupported() }
        if value < 0 { scratch.append(UInt8(ascii: "-")) }
        let magnitude = UInt64(value.magnitude)
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            scratch.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }

    fileprivate func write<Value: Encodable>(_ value: Value) throws {
        // JSONEncoder gives these its own formats; they never appear in a WOPI body this writer serves.
        if Value.self == Date.self || Value.self == Data.self || Value.self == URL.self || Value.self == Decimal.self {
            throw Unsupported()
        }
        scratch.append(contentsOf: try Self.bytes(of: value))
    }

    private static let `true` = Array("true".utf8)
    private static let `false` = Array("false".utf8)
    private static let null = Array("null".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string as JSONEncoder writes it: `"` and `\` escaped, control characters as `\b \f \n \r \t` or
    /// `\u00xx`, everything else (slashes and non-ASCII included) as its UTF-8.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: DirectJSONWriter
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { writer.member(key.stringValue) { writer.writeNil() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        writer.member(key.stringValue) { writer.write(value) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        writer.member(key.stringValue) { writer.write(value) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { throw DirectJSONWriter.Unsupported() }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw DirectJSONWriter.Unsupported() }
    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try writer.member(key.stringValue) { try writer.write(value) }
    }

    private func integer<Integer: FixedWidthInteger>(_ value: Integer, _ key: Key) throws {
        try writer.member(key.stringValue) { try writer.writeInteger(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        writer.abandon().container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.abandon().unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { writer.abandon() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { writer.abandon() }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let writer: DirectJSONWriter
    var codingPath: [any CodingKey] { [] }
    var count: Int { writer.count }

    mutating func encodeNil() throws { try element { writer.writeNil() } }
    mutating func encode(_ value: Bool) throws { try element { writer.write(value) } }
    mutating func encode(_ value: String) throws { try element { writer.write(value) } }
    mutating func encode(_ value: Double) throws { throw DirectJSONWriter.Unsupported() }
    mutating func encode(_ value: Float) throws { throw DirectJSONWriter.Unsupported() }
    mutating func encode(_ value: Int) throws { try element { try writer.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { try element { try writer.writeInteger(value) } }
    mutating func encode(_ value: Int16) throws { try element { try writer.writeInteger(value) } }
    mutating func encode(_ value: Int32) throws { try element { try writer.writeInteger(value) } }
    mutating func encode(_ value: Int64) throws { try element { try writer.writeInteger(value) } }
    mutating func encode(_ value: UInt) throws { try element { try writer.writeInteger(value) } }
    mutating func encode(_ value: UInt8) throws { try element { try writer.writeInteger(value) } }
    mutating func encode(_ value: UInt16) throws { try element { try writer.writeInteger(value) } }
    mutating func encode(_ value: UInt32) throws { try element { try writer.writeInteger(value) } }
    mutating func encode(_ value: UInt64) throws { try element { try writer.writeInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try element { try writer.write(value) } }

    private func element(_ write: () throws -> Void) throws { try writer.element(write) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        writer.abandon().container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { writer.abandon().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { writer.abandon() }
}

private struct ScalarContainer: SingleValueEncodingContainer {
    let writer: DirectJSONWriter
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { writer.writeNil() }
    mutating func encode(_ value: Bool) throws { writer.write(value) }
    mutating func encode(_ value: String) throws { writer.write(value) }
    mutating func encode(_ value: Double) throws { throw DirectJSONWriter.Unsupported() }
    mutating func encode(_ value: Float) throws { throw DirectJSONWriter.Unsupported() }
    mutating func encode(_ value: Int) throws { try writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { try writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { try writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { try writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { try writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { try writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try writer.writeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try writer.write(value) }
}
