/// The validator's test resources, by ID. The host treats content as opaque bytes, so each is a distinct
/// deterministic payload rather than a real Office file; the zero-byte ones are empty as in the validator.
enum Document: String, Sendable {
    case wordBlankDocument = "WordBlankDocument"
    case wordSimpleDocument = "WordSimpleDocument"
    case wordComplexDocument = "WordComplexDocument"
    case wordZeroByteDocument = "WordZeroByteDocument"
    case zeroByteFile = "ZeroByteFile"

    var bytes: [UInt8] {
        let size: Int
        switch self {
        case .wordBlankDocument: size = 1_500
        case .wordSimpleDocument: size = 7_000
        case .wordComplexDocument: size = 40_000
        case .wordZeroByteDocument, .zeroByteFile: return []
        }
        let seed = Array(rawValue.utf8)
        return (0..<size).map { seed[$0 % seed.count] &+ UInt8(truncatingIfNeeded: $0 / seed.count) }
    }
}
