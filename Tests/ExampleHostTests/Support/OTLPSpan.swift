/// A span as an OTLP export request carries it (opentelemetry-proto's `trace/v1/trace.proto`), decoded from the
/// protobuf wire format: the fields a test reads.
struct OTLPSpan: Sendable {
    /// An attribute value (`AnyValue`): the kinds WOPIKit records.
    enum Value: Sendable, Equatable {
        case string(String)
        case int(Int64)
        case bool(Bool)
        case double(Double)
    }

    /// The resource's `service.name`.
    var serviceName: String?
    var traceID = ""
    var spanID = ""
    var parentSpanID = ""
    var name = ""
    /// `SPAN_KIND_INTERNAL` 1, `SERVER` 2, `CLIENT` 3.
    var kind = 0
    var attributes: [String: Value] = [:]
    /// `STATUS_CODE_UNSET` 0, `OK` 1, `ERROR` 2.
    var statusCode = 0

    /// The spans of an `ExportTraceServiceRequest`.
    static func decode(_ bytes: [UInt8]) throws -> [OTLPSpan] {
        var spans: [OTLPSpan] = []
        for case (1, .bytes(let resourceSpans)) in try ProtobufFields.parse(bytes[...]) {
            var serviceName: String?
            var scopes: [ArraySlice<UInt8>] = []
            for field in try ProtobufFields.parse(resourceSpans) {
                switch field {
                case (1, .bytes(let resource)):
                    let attributes = try ProtobufFields.parse(resource).compactMap { field -> ArraySlice<UInt8>? in
                        if case (1, .bytes(let keyValue)) = field { keyValue } else { nil }
                    }
                    for keyValue in attributes {
                        let (key, value) = try attribute(keyValue)
                        if key == "service.name", case .string(let name) = value { serviceName = name }
                    }
                case (2, .bytes(let scope)): scopes.append(scope)
                default: break
                }
            }
            for scope in scopes {
                for case (2, .bytes(let span)) in try ProtobufFields.parse(scope) {
                    var decoded = try OTLPSpan(span)
                    decoded.serviceName = serviceName
                    spans.append(decoded)
                }
            }
        }
        return spans
    }

    private init(_ bytes: ArraySlice<UInt8>) throws {
        for field in try ProtobufFields.parse(bytes) {
            switch field {
            case (1, .bytes(let id)): traceID = Self.hex(id)
            case (2, .bytes(let id)): spanID = Self.hex(id)
            case (4, .bytes(let id)): parentSpanID = Self.hex(id)
            case (5, .bytes(let text)): name = String(decoding: text, as: UTF8.self)
            case (6, .varint(let value)): kind = Int(value)
            case (9, .bytes(let keyValue)):
                let (key, value) = try Self.attribute(keyValue)
                attributes[key] = value
            case (15, .bytes(let status)):
                for case (3, .varint(let code)) in try ProtobufFields.parse(status) { statusCode = Int(code) }
            default: break
            }
        }
    }

    /// A `KeyValue`.
    private static func attribute(_ bytes: ArraySlice<UInt8>) throws -> (String, Value?) {
        var key = ""
        var value: Value?
        for field in try ProtobufFields.parse(bytes) {
            switch field {
            case (1, .bytes(let text)): key = String(decoding: text, as: UTF8.self)
            case (2, .bytes(let anyValue)):
                for inner in try ProtobufFields.parse(anyValue) {
                    switch inner {
                    case (1, .bytes(let text)): value = .string(String(decoding: text, as: UTF8.self))
                    case (2, .varint(let flag)): value = .bool(flag != 0)
                    case (3, .varint(let number)): value = .int(Int64(bitPattern: number))
                    case (4, .fixed64(let bits)): value = .double(Double(bitPattern: bits))
                    default: break
                    }
                }
            default: break
            }
        }
        return (key, value)
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// The protobuf wire format (protobuf.dev/programming-guides/encoding): a message is a sequence of fields, each a
/// varint key (field number and wire type) and a value.
enum ProtobufFields {
    enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case bytes(ArraySlice<UInt8>)
        case fixed32(UInt32)
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The fields of one message, in order.
    static func parse(_ bytes: ArraySlice<UInt8>) throws -> [(Int, Value)] {
        var fields: [(Int, Value)] = []
        var index = bytes.startIndex
        func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.endIndex, shift < 64 {
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
            throw Malformed(description: "a varint runs past the message")
        }
        func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, bytes.endIndex - index >= count else {
                throw Malformed(description: "a field runs past the message")
            }
            defer { index += count }
            return bytes[index..<index + count]
        }
        func littleEndian(_ count: Int) throws -> UInt64 {
            try take(count).reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        while index < bytes.endIndex {
            let key = try varint()
            let number = Int(key >> 3)
            switch key & 7 {
            case 0: fields.append((number, .varint(try varint())))
            case 1: fields.append((number, .fixed64(try littleEndian(8))))
            case 2: fields.append((number, .bytes(try take(Int(try varint())))))
            case 5: fields.append((number, .fixed32(UInt32(try littleEndian(4)))))
            default: throw Malformed(description: "wire type \(key & 7) of field \(number)")
            }
        }
        return fields
    }
}
