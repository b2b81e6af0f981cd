/// The checks of a coauth table body (facts from the validator's `JsonSchemas/CoauthTableSchema.json` and
/// `JsonResponseBodyPropertyValidator`, which sorts both arrays and ignores `'*'` values).
enum CoauthTableCheck {
    static let keys: Set<String> = [
        "CoauthLockId", "CoauthLockMetadata", "CoauthLockType", "UserFriendlyName", "CoauthLockTime",
    ]

    /// Problems of `exchange`'s body against rows written `ID|Type|Metadata`.
    static func problems(_ exchange: Exchange, expected: [String]) -> [String] {
        guard case .object(let members)? = exchange.json, members.keys.sorted() == ["CoauthTable"],
            case .array(let rows)? = members["CoauthTable"]
        else { return ["the body is not {\"CoauthTable\": [...]} (CoauthTableSchema)"] }
        var problems: [String] = []
        var actual: [String] = []
        for row in rows {
            guard case .object(let fields) = row, Set(fields.keys) == keys else {
                problems.append("a row does not have exactly \(keys.sorted()): \(row)")
                continue
            }
            guard case .string(let id)? = fields["CoauthLockId"], !id.isEmpty,
                case .string(let type)? = fields["CoauthLockType"], !type.isEmpty,
                case .string(let metadata)? = fields["CoauthLockMetadata"],
                case .string(let holder)? = fields["UserFriendlyName"], !holder.isEmpty
            else {
                problems.append("a row has a missing, empty or mistyped string: \(row)")
                continue
            }
            switch fields["CoauthLockTime"] {
            case .integer?, .number?: break
            default: problems.append("CoauthLockTime of \(id) is not a number")
            }
            actual.append("\(id)|\(type)|\(metadata)")
        }
        if actual.sorted() != expected.sorted() {
            problems.append("CoauthTable: expected \(expected.sorted()), got \(actual.sorted())")
        }
        return problems
    }
}
