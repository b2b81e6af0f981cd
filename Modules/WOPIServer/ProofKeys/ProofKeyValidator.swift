import Crypto
public import Foundation
public import WOPIModels
import _CryptoExtras

/// Checks the proof-key signatures Office for the web and the WOPI validator put on WOPI requests
/// (Docs/wopi-protocol.md §12).
///
/// ```swift
/// let validator = try ProofKeyValidator(discovery: discovery.proofKey!)
/// let result = validator.validate(ProofKeyRequest(url: externalURL, headerFields: request.headerFields))
/// if result.shouldRefreshDiscovery { refreshDiscovery() }
/// guard result.isValid else { return .internalServerError }  // WOPI wants 500
/// ```
///
/// Rules (§12.4), checked in this order:
/// 1. `X-WOPI-Proof` and `X-WOPI-TimeStamp` must be present, the time stamp a decimal number of .NET ticks.
/// 2. The time stamp must be at most ``maximumTimestampAge`` (20 minutes) old. Choice made here: it may also be
///    at most that far in the future (Microsoft's sample accepts any future time, which would let a captured
///    request be replayed for as long as its clock claims).
/// 3. The request is ``ProofKeyValidationResult/valid`` when `X-WOPI-Proof` verifies with the current key, and
///    ``ProofKeyValidationResult/validWithOldKey`` when `X-WOPI-ProofOld` verifies with the current key or
///    `X-WOPI-Proof` with the old key. `X-WOPI-ProofOld` verified only by the old key is rejected.
///
/// Signatures are RSASSA-PKCS1-v1_5 with SHA-256 over ``ProofKeyPayload``. The signed token text is ambiguous
/// (§12.6), so several texts are tried (see ``ProofKeyRequest``): the token given, the URL's raw `access_token`
/// query value, and its percent-decoded form. Requests from Office for iOS/Android are not known to be signed;
/// do not require proofs on them (§12.1).
public struct ProofKeyValidator: Sendable {
    /// The default freshness window: 20 minutes.
    public static let defaultMaximumTimestampAge: TimeInterval = 20 * 60

    private let currentKey: _RSA.Signing.PublicKey
    private let oldKey: _RSA.Signing.PublicKey?
    /// How far `X-WOPI-TimeStamp` may be from now, in seconds.
    public let maximumTimestampAge: TimeInterval

    /// Creates a validator from key components.
    ///
    /// - Throws: ``ProofKeyError`` when a key is not a usable RSA key of at least 2048 bits.
    public init(
        current: RSAPublicKeyComponents, old: RSAPublicKeyComponents? = nil,
        maximumTimestampAge: TimeInterval = defaultMaximumTimestampAge
    ) throws(ProofKeyError) {
        currentKey = try Self.publicKey(current, "current")
        oldKey = try old.map { (key) throws(ProofKeyError) in try Self.publicKey(key, "old") }
        self.maximumTimestampAge = maximumTimestampAge
    }

    /// Creates a validator from discovery's `<proof-key>` element.
    ///
    /// - Throws: ``ProofKeyError`` when the element holds no readable current key, or a key is unusable.
    public init(discovery: DiscoveryProofKey, maximumTimestampAge: TimeInterval = defaultMaximumTimestampAge)
        throws(ProofKeyError)
    {
        let current: RSAPublicKeyComponents
        let old: RSAPublicKeyComponents?
        do throws(WOPIFormatError) {
            current = try discovery.currentKey()
            old = try discovery.oldKey()
        } catch {
            throw ProofKeyError("Discovery's proof-key element is unreadable: \(error.message)", underlying: error)
        }
        try self.init(current: current, old: old, maximumTimestampAge: maximumTimestampAge)
    }

    /// Validates a request's proof headers at time `now`.
    public func validate(_ request: ProofKeyRequest, now: Date = Date()) -> ProofKeyValidationResult {
        guard let proofText = request.proof?.trimmingCharacters(in: .whitespaces), !proofText.isEmpty,
            let stampText = request.timeStamp?.trimmingCharacters(in: .whitespaces), !stampText.isEmpty
        else {
            return .invalid(.init(.missingHeaders, "X-WOPI-Proof or X-WOPI-TimeStamp is missing."))
        }
        guard let ticks = Int64(stampText) else {
            return .invalid(.init(.malformedTimestamp, "X-WOPI-TimeStamp \"\(stampText)\" is not a tick count."))
        }
        let age = now.timeIntervalSince(DotNetTicks.date(fromTicks: ticks))
        if age > maximumTimestampAge {
            return .invalid(
                .init(
                    .timestampTooOld,
                    "X-WOPI-TimeStamp is \(Int(age)) s old; the limit is "
                        + "\(Int(maximumTimestampAge)) s. Check the clocks or whether the request was replayed."))
        }
        if -age > maximumTimestampAge {
            return .invalid(
                .init(
                    .timestampInFuture,
                    "X-WOPI-TimeStamp is \(Int(-age)) s in the future; the "
                        + "limit is \(Int(maximumTimestampAge)) s. Check this host's clock."))
        }
        let proof = Self.signature(proofText)
        let proofOld = request.proofOld.flatMap { Self.signature($0.trimmingCharacters(in: .whitespaces)) }
        guard proof != nil || proofOld != nil else {
            return .invalid(.init(.malformedSignature, "X-WOPI-Proof and X-WOPI-ProofOld are not base64."))
        }
        let digests = request.candidateTokens.map {
            SHA256.hash(data: ProofKeyPayload(accessToken: $0, url: request.url, timestamp: ticks).bytes)
        }
        func verifies(_ signature: _RSA.Signing.RSASignature?, _ key: _RSA.Signing.PublicKey?) -> Bool {
            guard let signature, let key else { return false }
            return digests.contains { key.isValidSignature(signature, for: $0, padding: .insecurePKCS1v1_5) }
        }
        if verifies(proof, currentKey) { return .valid }
        if verifies(proofOld, currentKey) || verifies(proof, oldKey) { return .validWithOldKey }
        return .invalid(
            .init(
                .signatureMismatch,
                "No proof verifies with the discovery keys. The request was "
                    + "not signed by Office, the URL differs from the one Office called (proxy, scheme, host), or the "
                    + "keys rotated: refresh discovery."))
    }

    private static func signature(_ base64: String) -> _RSA.Signing.RSASignature? {
        Data(base64Encoded: base64).map { _RSA.Signing.RSASignature(rawRepresentation: $0) }
    }

    private static func publicKey(_ components: RSAPublicKeyComponents, _ which: String) throws(ProofKeyError)
        -> _RSA.Signing.PublicKey
    {
        do {
            return try _RSA.Signing.PublicKey(n: components.modulus, e: components.exponent)
        } catch {
            throw ProofKeyError(
                "The \(which) proof key (\(components.bitCount) bits) is not a usable RSA key of at "
                    + "least 2048 bits; refresh discovery.", underlying: error)
        }
    }
}
