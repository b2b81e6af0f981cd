/// Why a request's proof-key signature was rejected. A host answers such a request with `500` (Docs/wopi-protocol.md
/// §12.4).
public struct ProofKeyRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of rejection.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case missingHeaders, malformedTimestamp, timestampTooOld, timestampInFuture, malformedSignature
            case signatureMismatch
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// `X-WOPI-Proof` or `X-WOPI-TimeStamp` is absent.
        public static let missingHeaders = Code(.missingHeaders)
        /// `X-WOPI-TimeStamp` is not a decimal 64-bit integer.
        public static let malformedTimestamp = Code(.malformedTimestamp)
        /// `X-WOPI-TimeStamp` is more than the allowed age (20 minutes) in the past.
        public static let timestampTooOld = Code(.timestampTooOld)
        /// `X-WOPI-TimeStamp` is more than the allowed age in the future (clock skew or tampering).
        public static let timestampInFuture = Code(.timestampInFuture)
        /// Neither signature header is valid base64.
        public static let malformedSignature = Code(.malformedSignature)
        /// No accepted combination of signature and key verifies.
        public static let signatureMismatch = Code(.signatureMismatch)

        public var description: String { base.rawValue }
    }

    /// The kind of rejection.
    public let code: Code
    /// What was wrong and what to do, for logs.
    public let message: String

    /// Creates a rejection.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "ProofKeyRejection.\(code): \(message)" }
}
