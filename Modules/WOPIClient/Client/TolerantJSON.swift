import Foundation
import WOPIModels

/// Decodes a host's JSON answer (CheckFileInfo, container and ecosystem bodies) so that one optional property of
/// the wrong type does not make the whole answer unreadable.
///
/// Hosts send what they have: `"Size": "1024"`, `"UserCanWrite": "true"`, `"LastModifiedTime": 17`. A member that
/// cannot be decoded is removed and decoding tried again, as if the host had left it out; what was removed is
/// returned for a warning. A required member that cannot be read still fails (it is then missing).
enum TolerantJSON {
    /// The most members removed from one answer before giving up.
    static let maximumRemovals = 32

    /// Decodes `data` as `type`, leaving out members that cannot be decoded.
    ///
    /// - Returns: the value and the members left out, as dotted paths with the reason.
    /// - Throws: the `DecodingError` of the first failure that removing a member cannot mend (a required member,
    ///   or text that is not JSON).
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> (value: T, ignored: [String]) {
        var data = data
        var ignored: [String] = []
        while true {
            do {
                return (try WOPIJSON.decoder.decode(type, from: data), ignored)
            } catch let error as DecodingError {
                guard ignored.count < maximumRemovals, let context = error.mendableContext,
                    let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
                    let mended = removing(context.codingPath, from: root),
                    let mendedData = try? JSONSerialization.data(withJSONObject: mended, options: [.fragmentsAllowed])
                else { throw error }
                ignored.append("\(path(context.codingPath)): \(context.debugDescription)")
                data = mendedData
            }
        }
    }

    /// `root` without the member at `path`, or `nil` when there is no such member.
    static func removing(_ path: [any CodingKey], from root: Any) -> Any? {
        guard let first = path.first else { return nil }
        let rest = Array(path.dropFirst())
        if var object = root as? [String: Any], object[first.stringValue] != nil {
            if rest.isEmpty {
                object[first.stringValue] = nil
            } else {
                guard let child = removing(rest, from: object[first.stringValue]!) else { return nil }
                object[first.stringValue] = child
            }
            return object
        }
        if var array = root as? [Any], let index = first.intValue, array.indices.contains(index), !rest.isEmpty {
            guard let child = removing(rest, from: array[index]) else { return nil }
            array[index] = child
            return array
        }
        return nil
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

extension DecodingError {
    /// The context of a member whose value is of the wrong type or unreadable: what removing the member may mend.
    fileprivate var mendableContext: Context? {
        switch self {
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return context.codingPath.isEmpty ? nil : context
        default:
            return nil
        }
    }
}
