package import Foundation
package import NIOCore
import WOPIModels

/// Writes the bytes `WOPIJSON.encoder` writes (keys sorted by their UTF-8 bytes, slashes unescaped, no spaces)
/// straight from a value's `encode(to:)`, without `JSONEncoder`'s intermediate tree: what every listing and every
/// other WOPI body is made of. A CheckFileInfo is written by `CheckFileInfo.json()` (``JSONObjectWriter``), without
/// the `Encoder` protocol at all.
///
/// It writes strings, booleans, integers, `Double`s, `nil`, and objects and arrays of them, which is every WOPI
/// body, and, when asked, dates as `JSONEncoder`'s `.secondsSince1970` writes them (the audit log's lines). A value
/// holding anything else (a `Float`, a `Date` otherwise, `Data`, a `URL` or a `Decimal`, which `JSONEncoder` formats
/// by its own rules) makes ``buffer(of:)`` throw ``Unsupported``, and
/// ``WOPIResponse/json(_:status:headers:)`` falls back to `JSONEncoder`. `DirectJSONWriterTests` proves the bytes
/// equal `JSONEncoder`'s for every CheckFileInfo property, alone, together and in random combinations.
///
/// What it allocates per value: the writer, its two arrays (reserved for a CheckFileInfo) and the container boxes the
/// `Encoder` protocol makes. A nested value is written by a child writer that the parent keeps and reuses, so the
/// entries of a listing share its buffers. `JSONWriterAllocationTests` holds it below `JSONEncoder`'s count.
package final class DirectJSONWriter: Encoder {
    /// The value holds something this writer leaves to `JSONEncoder`.
    package struct Unsupported: Error {}

    /// The JSON of `value` in a new buffer.
    package static func buffer<Value: Encodable>(of value: Value) throws -> ByteBuffer {
        if let info = value as? CheckFileInfo { return info.json() }
        if hasItsOwnFormat(Value.self) { throw Unsupported() }
        let writer = DirectJSONWriter.topLevel()
        try value.encode(to: writer)
        var output = ByteBuffer()
        try writer.finish({ output.reserveCapacity($0) }) { output.writeBytes($0) }
        return output
    }

    /// The JSON of `value`; with `datesSince1970`, a `Date` is its seconds since 1970, as `JSONEncoder` with the
    /// `.secondsSince1970` strategy writes it.
    package static func bytes<Value: Encodable>(of value: Value, datesSince1970: Bool = false) throws -> [UInt8] {
        var output: [UInt8] = []
        try reusable(datesSince1970: datesSince1970).append(value, to: &output)
        return output
    }

    /// The `JSONEncoder` whose bytes this writer writes: `WOPIJSON.encoder`'s form, with dates as seconds since 1970
    /// when `datesSince1970`. A value this writer leaves to `JSONEncoder` goes to this one, so the bytes keep one form.
    package static func matchingEncoder(datesSince1970: Bool) -> JSONEncoder {
        let encoder = WOPIJSON.encoder
        if datesSince1970 { encoder.dateEncodingStrategy = .secondsSince1970 }
        return encoder
    }

    /// The JSON of `value`: this writer's bytes, or ``matchingEncoder(datesSince1970:)``'s for a value it leaves to
    /// `JSONEncoder` (which also reports the value's own errors).
    package static func json<Value: Encodable>(of value: Value, datesSince1970: Bool) throws -> [UInt8] {
        var output: [UInt8] = []
        try reusable(datesSince1970: datesSince1970).appendJSON(of: value, to: &output)
        return output
    }

    /// A writer for many values, one after the other (the entries of a streamed listing, the lines of an audit
    /// batch): ``append(_:to:)`` reuses its buffers. With `datesSince1970`, dates are written as ``bytes(of:datesSince1970:)``
    /// writes them.
    package static func reusable(datesSince1970: Bool = false) -> DirectJSONWriter {
        let writer = topLevel()
        writer.datesSince1970 = datesSince1970
        return writer
    }

    /// Appends the JSON of `value` to `output`; throws ``Unsupported``, with `output` as it was, for a value this
    /// writer leaves to `JSONEncoder`.
    package func append<Value: Encodable>(_ value: Value, to output: inout [UInt8]) throws {
        if Self.hasItsOwnFormat(Value.self) { throw Unsupported() }
        reset()
        try value.encode(to: self)
        try finish({ output.reserveCapacity(output.count + $0) }) {
            output.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Appends the JSON of `value` to `output`: this writer's bytes, or ``matchingEncoder(datesSince1970:)``'s for a
    /// value it leaves to `JSONEncoder` (which also reports the value's own errors).
    package func appendJSON<Value: Encodable>(of value: Value, to output: inout [UInt8]) throws {
        do {
            try append(value, to: &output)
        } catch {
            output += try Self.matchingEncoder(datesSince1970: datesSince1970).encode(value)
        }
    }

    private enum Shape { case unknown, object, array, scalar, mixed }

    /// An object member: its key's raw UTF-8 and then its value's JSON, side by side in `scratch`; `order` breaks
    /// ties between equal keys (the last one written wins, as in `JSONEncoder`).
    private struct Member {
        var keyStart: Int
        var valueStart: Int
        var valueEnd: Int
        var order: Int
    }

    package var codingPath: [any CodingKey] { [] }
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    private var shape = Shape.unknown
    /// The scalar, the array's elements with their commas, or the object's keys and values.
    fileprivate var scratch: [UInt8] = []
    private var members: [Member] = []
    /// The array's elements so far.
    fileprivate private(set) var count = 0
    /// Set when the value asks for what this writer does not write (a nested or super encoder, a float).
    fileprivate var abandoned = false
    /// The writer of nested values, kept for the next one.
    private var child: DirectJSONWriter?
    /// Whether a `Date` is written as its seconds since 1970 (else it is left to `JSONEncoder`).
    private var datesSince1970 = false

    private init() {}

    /// A writer with room for a CheckFileInfo answer, so that its arrays do not grow step by step.
    private static func topLevel() -> DirectJSONWriter {
        let writer = DirectJSONWriter()
        writer.scratch.reserveCapacity(2048)
        writer.members.reserveCapacity(48)
        return writer
    }

    private func reset() {
        shape = .unknown
        scratch.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        count = 0
        abandoned = false
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
        if self.shape == .unknown || self.shape == shape { self.shape = shape } else { self.shape = .mixed }
    }

    /// Begins an object member; the caller appends its value to `scratch` next.
    fileprivate func beginMember(_ key: String) {
        let keyStart = scratch.count
        scratch.append(contentsOf: key.utf8)
        members.append(
            Member(keyStart: keyStart, valueStart: scratch.count, valueEnd: scratch.count, order: members.count))
    }

    /// Ends the member begun last.
    fileprivate func endMember() {
        members[members.count - 1].valueEnd = scratch.count
    }

    /// Begins an array element; the caller appends it to `scratch` next.
    fileprivate func beginElement() {
        if count > 0 { scratch.append(UInt8(ascii: ",")) }
        count += 1
    }

    /// Hands the finished JSON to `write`, in pieces, after telling `reserve` about how many bytes it takes.
    private func finish(_ reserve: (Int) -> Void, _ write: (UnsafeRawBufferPointer) -> Void) throws {
        if abandoned { throw Unsupported() }
        switch shape {
        case .unknown, .mixed:
            throw Unsupported()
        case .scalar:
            guard !scratch.isEmpty else { throw Unsupported() }
            reserve(scratch.count)
            scratch.withUnsafeBytes(write)
        case .array:
            reserve(scratch.count + 2)
            withUnsafeBytes(of: UInt8(ascii: "["), write)
            scratch.withUnsafeBytes(write)
            withUnsafeBytes(of: UInt8(ascii: "]"), write)
        case .object:
            // Keys and values are all of scratch; each member adds two quotes, a colon and a comma.
            reserve(scratch.count + members.count * 4 + 2)
            writeObject(write)
        }
    }

    /// Writes the object: keys in the order of their UTF-8 bytes, as `JSONEncoder`'s `.sortedKeys` has them.
    private func writeObject(_ write: (UnsafeRawBufferPointer) -> Void) {
        scratch.withUnsafeBytes { bytes in
            Self.sortByKey(&members, in: bytes)
            withUnsafeBytes(of: UInt8(ascii: "{"), write)
            var first = true
            for index in members.indices {
                let member = members[index]
                // Of equal keys, only the last written is kept.
                if index + 1 < members.count, Self.compareKeys(member, members[index + 1], in: bytes) == 0 { continue }
                withUnsafeBytes(of: first ? UInt8(ascii: "\"") : UInt8(ascii: ","), write)
                if !first { withUnsafeBytes(of: UInt8(ascii: "\""), write) }
                first = false
                Self.writeEscaped(UnsafeRawBufferPointer(rebasing: bytes[member.keyStart..<member.valueStart]), write)
                withUnsafeBytes(of: (UInt8(ascii: "\""), UInt8(ascii: ":")), write)
                write(UnsafeRawBufferPointer(rebasing: bytes[member.valueStart..<member.valueEnd]))
            }
            withUnsafeBytes(of: UInt8(ascii: "}"), write)
        }
    }

    /// Sorts `members` by their keys' bytes, equal keys in the order written: a binary insertion sort, with no
    /// closure and no buffer (a CheckFileInfo has about 30 members; the order is set per request).
    private static func sortByKey(_ members: inout [Member], in bytes: UnsafeRawBufferPointer) {
        guard members.count > 1 else { return }
        for index in 1..<members.count {
            let member = members[index]
            var low = 0
            var high = index
            while low < high {
                let middle = (low + high) / 2
                let order = compareKeys(member, members[middle], in: bytes)
                if order < 0 || (order == 0 && member.order < members[middle].order) {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            var position = index
            while position > low {
                members[position] = members[position - 1]
                position -= 1
            }
            members[low] = member
        }
    }

    /// The order of two members' keys by their UTF-8 bytes: negative, zero or positive, as `memcmp`.
    private static func compareKeys(_ lhs: Member, _ rhs: Member, in bytes: UnsafeRawBufferPointer) -> Int {
        let leftCount = lhs.valueStart - lhs.keyStart
        let rightCount = rhs.valueStart - rhs.keyStart
        let common = Swift.min(leftCount, rightCount)
        if common > 0, let base = bytes.baseAddress {
            let order = memcmp(base + lhs.keyStart, base + rhs.keyStart, common)
            if order != 0 { return Int(order) }
        }
        return leftCount - rightCount
    }

    // MARK: Scalars

    fileprivate func write(_ value: String) {
        scratch.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            Self.writeEscaped(UnsafeRawBufferPointer(utf8)) { scratch.append(contentsOf: $0) }
        }
        scratch.append(UInt8(ascii: "\""))
    }

    fileprivate func write(_ value: Bool) {
        value ? scratch.append(contentsOf: "true".utf8) : scratch.append(contentsOf: "false".utf8)
    }

    fileprivate func writeNil() { scratch.append(contentsOf: "null".utf8) }

    fileprivate func writeInteger<Integer: FixedWidthInteger>(_ value: Integer) {
        guard Integer.bitWidth <= 64 else {
            abandoned = true
            return
        }
        if value < 0 { scratch.append(UInt8(ascii: "-")) }
        let magnitude = UInt64(value.magnitude)
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            scratch.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// Writes `value` as `JSONEncoder` does (``number(_:)``). JSONEncoder refuses NaN and the infinities; so does this
    /// writer.
    fileprivate func write(_ value: Double) {
        guard let text = Self.number(value) else {
            abandoned = true
            return
        }
        scratch.append(contentsOf: text.utf8)
    }

    /// `value` as `JSONEncoder` writes it: its shortest decimal form that reads back the same (`description`), a
    /// whole number without the `.0`; `nil` for NaN and the infinities, which JSONEncoder refuses.
    package static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    fileprivate func writeUnsupported() { abandoned = true }

    fileprivate func write<Value: Encodable>(_ value: Value) throws {
        if datesSince1970, let date = value as? Date {
            write(date.timeIntervalSince1970)
            return
        }
        if Self.hasItsOwnFormat(Value.self) {
            abandoned = true
            return
        }
        let child = self.child ?? DirectJSONWriter()
        child.datesSince1970 = datesSince1970
        self.child = nil
        defer {
            child.reset()
            self.child = child
        }
        try value.encode(to: child)
        do {
            // No reserving: the scratch grows by doubling across a listing's many children.
            try child.finish({ _ in }) { scratch.append(contentsOf: $0) }
        } catch {
            abandoned = true
        }
    }

    /// Whether JSONEncoder gives values of `type` a format of its own (not their `encode(to:)`); no WOPI body this
    /// writer serves holds one.
    private static func hasItsOwnFormat<Value>(_ type: Value.Type) -> Bool {
        type == Date.self || type == Data.self || type == URL.self || type == Decimal.self
    }

    /// Writes `text` as the inside of a JSON string, as JSONEncoder writes it: `"` and `\` escaped, control
    /// characters as `\b \f \n \r \t` or `\u00xx`, everything else (slashes and non-ASCII included) as its UTF-8.
    /// Runs that need no escape go out whole.
    static func writeEscaped(_ text: UnsafeRawBufferPointer, _ write: (UnsafeRawBufferPointer) -> Void) {
        var runStart = 0
        for index in text.indices {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { write(UnsafeRawBufferPointer(rebasing: text[runStart..<index])) }
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): withUnsafeBytes(of: (UInt8(ascii: "\\"), byte), write)
            case 0x08: withUnsafeBytes(of: (UInt8(ascii: "\\"), UInt8(ascii: "b")), write)
            case 0x0C: withUnsafeBytes(of: (UInt8(ascii: "\\"), UInt8(ascii: "f")), write)
            case 0x0A: withUnsafeBytes(of: (UInt8(ascii: "\\"), UInt8(ascii: "n")), write)
            case 0x0D: withUnsafeBytes(of: (UInt8(ascii: "\\"), UInt8(ascii: "r")), write)
            case 0x09: withUnsafeBytes(of: (UInt8(ascii: "\\"), UInt8(ascii: "t")), write)
            default:
                let escape = (
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigit(byte >> 4),
                    hexDigit(byte & 0xF)
                )
                withUnsafeBytes(of: escape, write)
            }
        }
        if runStart < text.count { write(UnsafeRawBufferPointer(rebasing: text[runStart...])) }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: DirectJSONWriter
    var codingPath: [any CodingKey] { [] }

    private func member(_ key: Key, _ write: () throws -> Void) rethrows {
        writer.beginMember(key.stringValue)
        try write()
        writer.endMember()
    }

    mutating func encodeNil(forKey key: Key) throws { member(key) { writer.writeNil() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { member(key) { writer.write(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { member(key) { writer.write(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { member(key) { writer.write(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { writer.writeUnsupported() }
    mutating func encode(_ value: Int, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { member(key) { writer.writeInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try member(key) { try writer.write(value) }
    }

    // A CheckFileInfo has about 130 optional members, most of them nil: these skip the protocol's default
    // `encodeIfPresent`, which goes through the generic `encode` for each.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { member(key) { writer.write(value) } }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { member(key) { writer.write(value) } }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { member(key) { writer.writeInteger(value) } }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { member(key) { writer.writeInteger(value) } }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try member(key) { try writer.write(value) } }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        writer.writeUnsupported()
        return KeyedEncodingContainer(ObjectContainer<NestedKey>(writer: writer))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.writeUnsupported()
        return ArrayContainer(writer: writer)
    }
    mutating func superEncoder() -> any Encoder {
        writer.writeUnsupported()
        return writer
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.writeUnsupported()
        return writer
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let writer: DirectJSONWriter
    var codingPath: [any CodingKey] { [] }
    var count: Int { writer.count }

    private func element(_ write: () throws -> Void) rethrows {
        writer.beginElement()
        try write()
    }

    mutating func encodeNil() throws { element { writer.writeNil() } }
    mutating func encode(_ value: Bool) throws { element { writer.write(value) } }
    mutating func encode(_ value: String) throws { element { writer.write(value) } }
    mutating func encode(_ value: Double) throws { element { writer.write(value) } }
    mutating func encode(_ value: Float) throws { writer.writeUnsupported() }
    mutating func encode(_ value: Int) throws { element { writer.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { element { writer.writeInteger(value) } }
    mutating func encode(_ value: Int16) throws { element { writer.writeInteger(value) } }
    mutating func encode(_ value: Int32) throws { element { writer.writeInteger(value) } }
    mutating func encode(_ value: Int64) throws { element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt) throws { element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt8) throws { element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt16) throws { element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt32) throws { element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt64) throws { element { writer.writeInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try element { try writer.write(value) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        writer.writeUnsupported()
        return KeyedEncodingContainer(ObjectContainer<NestedKey>(writer: writer))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.writeUnsupported()
        return self
    }
    mutating func superEncoder() -> any Encoder {
        writer.writeUnsupported()
        return writer
    }
}

private struct ScalarContainer: SingleValueEncodingContainer {
    let writer: DirectJSONWriter
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { writer.writeNil() }
    mutating func encode(_ value: Bool) throws { writer.write(value) }
    mutating func encode(_ value: String) throws { writer.write(value) }
    mutating func encode(_ value: Double) throws { writer.write(value) }
    mutating func encode(_ value: Float) throws { writer.writeUnsupported() }
    mutating func encode(_ value: Int) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { writer.writeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try writer.write(value) }
}
