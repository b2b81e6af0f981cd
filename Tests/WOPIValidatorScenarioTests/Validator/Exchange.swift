import Foundation
import NIOHTTP1
import WOPITestSupport

/// One request as sent and the reply as received, printable for a failure report (tokens redacted).
struct Exchange: Sendable {
    let operation: String
    let method: HTTPMethod
    let url: String
    let requestHeaders: [(String, String)]
    let requestBodySize: Int
    let reply: HTTP.Reply

    var status: Int { reply.status }
    var json: JSONValue? { JSONValue.parse(reply.bytes) }
    func header(_ name: String) -> String? { reply.header(name) }

    var description: String {
        var lines = ["\(operation): \(method.rawValue) \(Self.redacted(url))"]
        for (name, value) in requestHeaders {
            lines.append("  > \(name): \(name == "Authorization" ? "Bearer …" : value.prefix(120))")
        }
        if requestBodySize > 0 { lines.append("  > (body: \(requestBodySize) bytes)") }
        lines.append("  < \(reply.status)")
        for (name, value) in reply.headers { lines.append("  < \(name): \(value.prefix(160))") }
        let body = reply.text
        if !body.isEmpty, body.utf8.count < 4_000, JSONValue.parse(reply.bytes) != nil || reply.status != 200 {
            lines.append("  < \(Self.redacted(String(body.prefix(800))))")
        }
        return lines.joined(separator: "\n")
    }

    /// Replaces `access_token=…` values, so reports never carry live tokens.
    static func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: #"access_token=[^&"\s]*"#, with: "access_token=…", options: .regularExpression)
    }
}
