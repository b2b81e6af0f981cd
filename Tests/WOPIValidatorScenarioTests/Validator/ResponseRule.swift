import NIOCore
import WOPITestSupport

/// A validator attached to a request (facts from `src/WopiValidator.Core/Validators/*.cs`). A request with
/// no rules gets the validator's default: status `200`.
enum ResponseRule: Sendable {
    /// `ResponseCodeValidator`, or an `Or` of several.
    case status(Set<Int>)
    /// `Or`: at least one of the rules holds.
    case anyOf([ResponseRule])
    /// `LockMismatchValidator`: `409`, and `X-WOPI-Lock` equal to `expected` (required unless `expected` is "").
    case lockMismatch(String)
    /// `ResponseHeaderValidator`: the header is present (when `required`) and, if `expected` is set, equals it
    /// (case-insensitive) or, with `shouldMatch: false`, differs from it.
    case header(String, expected: String? = nil, required: Bool = true, shouldMatch: Bool = true)
    /// `JsonResponseContentValidator` with its property checks.
    case json([JSONRule])
    /// `JsonSchemaValidator` with the CSPP / CSPP-Plus CheckFileInfo schema.
    case checkFileInfoSchema
    /// `ResponseContentValidator`: the body equals a resource.
    case content(Document)
    /// `CoauthTableSchema` plus the `CoauthTable` property (order ignored, as the validator sorts both sides):
    /// one row per `ID|Type|Metadata`, each with a non-empty `UserFriendlyName` and a numeric `CoauthLockTime`.
    case coauthTable([String])
    /// `JsonResponseContentValidator ShouldExist="false"`: no body.
    case noBody
    /// `FramesValidator` on a GetChunkedFile response.
    case frames(FramesCheck)
    /// `ResponseHeaderValidator Header="X-WOPI-SequenceNumber" Comparator=">"` (or `">="`) against saved state.
    case sequenceNumber(after: Int64, orEqual: Bool)
    /// Not a validator rule: the protocol docs forbid JSON `null` (Docs/wopi-protocol.md §2.5); used where the brief
    /// asks.
    case noJSONNulls

    static let ok = ResponseRule.status([200])
    static let invalidToken = ResponseRule.status([401, 404])

    /// Problems of `exchange` under this rule.
    func problems(_ exchange: Exchange) -> [String] {
        switch self {
        case .status(let codes):
            return codes.contains(exchange.status)
                ? []
                : [
                    "expected status \(codes.sorted().map(String.init).joined(separator: " or ")), got \(exchange.status)"
                ]
        case .anyOf(let rules):
            let each = rules.map { $0.problems(exchange) }
            return each.contains(where: \.isEmpty)
                ? [] : ["none of these holds: " + each.map { $0.joined(separator: "; ") }.joined(separator: " | ")]
        case .lockMismatch(let expected):
            return ResponseRule.status([409]).problems(exchange)
                + ResponseRule.header("X-WOPI-Lock", expected: expected, required: !expected.isEmpty).problems(exchange)
        case .header(let name, let expected, let required, let shouldMatch):
            guard let value = exchange.header(name) else {
                return required ? ["response header '\(name)' is missing"] : []
            }
            guard let expected else { return [] }
            if !shouldMatch, value.isEmpty, expected.isEmpty { return ["'\(name)' must be a non-empty string"] }
            let matches = value.lowercased() == expected.lowercased()
            if shouldMatch, !matches {
                return ["'\(name)': expected '\(expected.prefix(80))', got '\(value.prefix(80))'"]
            }
            if !shouldMatch, matches { return ["'\(name)' must not be '\(expected)'"] }
            return []
        case .json(let rules):
            guard let document = exchange.json else { return ["the response body is not JSON"] }
            return rules.compactMap { $0.problem(in: document) }
        case .checkFileInfoSchema:
            guard let document = exchange.json else { return ["the response body is not JSON"] }
            return CSPPSchema.problems(in: document)
        case .content(let document):
            return exchange.reply.bytes == document.bytes
                ? [] : ["the body (\(exchange.reply.body.readableBytes) bytes) is not \(document.rawValue)"]
        case .coauthTable(let rows):
            return CoauthTableCheck.problems(exchange, expected: rows)
        case .noBody:
            return exchange.reply.body.readableBytes == 0
                ? [] : ["expected no body, got \(exchange.reply.body.readableBytes) bytes"]
        case .frames(let check):
            return check.problems(exchange.reply.body)
        case .sequenceNumber(let saved, let orEqual):
            guard let value = exchange.header("X-WOPI-SequenceNumber").flatMap({ Int64($0) }) else {
                return ["X-WOPI-SequenceNumber is missing or not an integer"]
            }
            return value > saved || (orEqual && value == saved)
                ? [] : ["X-WOPI-SequenceNumber \(value) is not \(orEqual ? ">=" : ">") \(saved)"]
        case .noJSONNulls:
            guard let document = exchange.json else { return ["the response body is not JSON"] }
            return document.nullPaths().map {
                "'\($0)' is null; leave the property out instead (Docs/wopi-protocol.md §2.5)"
            }
        }
    }
}
