import Foundation
import WOPIHTTPEdge

/// How the database stores (`SQLiteServerStores`, `PostgresServerStores`) keep a record as JSON beside the columns
/// they query: its `Codable` form, keys sorted, dates as seconds since 1970. One codec, so a record written by one
/// database's store reads back the same in the other's.
package enum JSONRecordCodec {
    /// The JSON text of `value`: written by the direct writer (an audit event on every request), or by the
    /// `JSONEncoder` of the same form when the value holds what that writer leaves to it.
    package static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try DirectJSONWriter.json(of: value, datesSince1970: true), as: UTF8.self)
    }

    /// The record of type `T` that `json` holds.
    package static func decode<T: Decodable & SendableMetatype>(_ json: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(T.self, from: Data(json.utf8))
    }
}
