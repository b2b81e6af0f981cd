import Foundation
import WOPIHTTPEdge

/// How the database stores (`SQLiteServerStores`, `PostgresServerStores`) keep a record as JSON beside the columns
/// they query: its `Codable` form, keys sorted, dates as seconds since 1970. One codec, so a record written by one
/// database's store reads back the same in the other's.
package enum JSONRecordCodec {
    /// The JSON text of `value`: written by the direct writer (an audit event on every request), or by
    /// `JSONEncoder` when the value holds what that writer leaves to it. The two differ only in `/`, which
    /// `JSONEncoder` escapes as `\/`; both read back the same.
    package static func encode(_ value: some Encodable) throws -> String {
        if let bytes = try? DirectJSONWriter.bytes(of: value, datesSince1970: true) {
            return String(decoding: bytes, as: UTF8.self)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The record of type `T` that `json` holds.
    package static func decode<T: Decodable & SendableMetatype>(_ json: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(T.self, from: Data(json.utf8))
    }
}
