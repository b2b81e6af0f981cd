import Foundation

/// A parsed JSON value that keeps JSON's types apart (a boolean is never a number), so type rules can be
/// checked exactly.
indirect enum JSONValue: Equatable, Sendable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses `bytes`, or returns `nil` when they are not JSON.
    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// The value at a validator property path such as `AncestorsWithRootFirst[-1:].Url`,
    /// `ChildFiles[0].Name` or `ContainerPointer.Url` (Json.NET `SelectToken` syntax, the subset it uses).
    func select(_ path: String) -> JSONValue? {
        var current: JSONValue? = self
        for segment in path.split(separator: ".") {
            var name = Substring(segment)
            var index: String?
            if let open = segment.firstIndex(of: "["), segment.hasSuffix("]") {
                name = segment[..<open]
                index = String(segment[segment.index(after: open)..<segment.index(before: segment.endIndex)])
            }
            if !name.isEmpty {
                guard case .object(let members)? = current else { return nil }
                current = members[String(name)]
            }
            if let index {
                guard case .array(let items)? = current, !items.isEmpty else { return nil }
                if index == "-1:" {
                    current = items.last
                } else if let position = Int(index), items.indices.contains(position) {
                    current = items[position]
                } else {
                    return nil
                }
            }
        }
        return current
    }

    /// The string, when this is a string.
    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is a boolean.
    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// Paths of every `null` inside this value (the docs forbid sending `null`; Docs/wopi-protocol.md §2.5).
    func nullPaths(prefix: String = "") -> [String] {
        switch self {
        case .null: return [prefix.isEmpty ? "(root)" : prefix]
        case .array(let items):
            return items.enumerated().flatMap { $1.nullPaths(prefix: "\(prefix)[\($0)]") }
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap {
                $1.nullPaths(prefix: prefix.isEmpty ? $0 : "\(prefix).\($0)")
            }
        default: return []
        }
    }
}
