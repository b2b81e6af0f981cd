import Crypto
import Foundation
import HTTPTypes
import Testing
import WOPIModels
import WOPIServer
import _CryptoExtras

/// Microsoft's public proof-key sample vectors, kept beside this file in `Vectors/wopi-proof-key-vectors.json`.
struct ProofKeyVectors: Decodable {
    struct Case: Decodable {
        var name: String
        var accessToken: String
        var timestamp: Int64
        var url: String
        var proof: String
        var proofOld: String
        var valid: Bool
    }
    var keys: DiscoveryProofKeyJSON
    var cases: [Case]

    struct DiscoveryProofKeyJSON: Decodable {
        var modulus, exponent, oldmodulus, oldexponent, value, oldvalue: String
        var discovery: DiscoveryProofKey {
            DiscoveryProofKey(
                value: value, modulus: modulus, exponent: exponent, oldValue: oldvalue, oldModulus: oldmodulus,
                oldExponent: oldexponent)
        }
    }

    static let location = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Vectors/wopi-proof-key-vectors.json")

    static func load() throws -> ProofKeyVectors {
        guard let data = FileManager.default.contents(atPath: location.path) else {
            throw VectorsMissing(path: location.path)
        }
        return try JSONDecoder().decode(ProofKeyVectors.self, from: data)
    }

    struct VectorsMissing: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "The proof-key test vectors are missing: expected them at \(path)."
        }
    }
}

@Suite struct ProofKeyValidatorTests {
    static let vectors = Result { try ProofKeyVectors.load() }

    static func request(_ vector: ProofKeyVectors.Case, accessToken: String? = nil) -> ProofKeyRequest {
        ProofKeyRequest(
            url: vector.url, accessToken: accessToken, proof: vector.proof, proofOld: vector.proofOld,
            timeStamp: String(vector.timestamp))
    }

    static func at(_ ticks: Int64, plusMinutes minutes: Double = 0) -> Date {
        DotNetTicks.date(fromTicks: ticks).addingTimeInterval(minutes * 60)
    }

    @Test func vectorFileHasAllEightCases() throws {
        let vectors = try Self.vectors.get()
        #expect(vectors.cases.count == 8)
        #expect(vectors.cases.filter(\.valid).count == 6)
    }

    @Test func everyVectorGivesTheExpectedResult() throws {
        let vectors = try Self.vectors.get()
        let validator = try ProofKeyValidator(discovery: vectors.keys.discovery)
        for vector in vectors.cases {
            let result = validator.validate(Self.request(vector), now: Self.at(vector.timestamp, plusMinutes: 1))
            #expect(result.isValid == vector.valid, "\(vector.name): \(result)")
            switch vector.name {
            case let name where name.hasPrefix("test_proof_current_key"):
                #expect(result == .valid, "\(name)")
            case let name where name.hasPrefix("test_old_proof_current_key"),
                let name
            where name.hasPrefix("test_proof_old_key"):
                #expect(result == .validWithOldKey, "\(name)")
                #expect(result.shouldRefreshDiscovery)
            default:
                guard case .invalid(let rejection) = result else {
                    Issue.record("\(vector.name) accepted")
                    continue
                }
                #expect(rejection.code == .signatureMismatch)
            }
        }
    }

    /// Fuzzing regression (`Fuzz/Corpus/proof-key/regression-ticks-overflow`): an `X-WOPI-TimeStamp` below
    /// `Int64.min + 621355968000000000` trapped while converting ticks, stopping the host on one request.
    @Test func extremeTimestampsAreRejectedNotFatal() throws {
        let vectors = try Self.vectors.get()
        let validator = try ProofKeyValidator(discovery: vectors.keys.discovery)
        let vector = try #require(vectors.cases.first)
        for stamp in [Int64.min, -9_000_000_000_000_000_000] {
            var request = Self.request(vector)
            request.timeStamp = String(stamp)
            #expect(isRejected(validator.validate(request, now: Self.at(vector.timestamp)), .timestampTooOld))
        }
        var request = Self.request(vector)
        request.timeStamp = String(Int64.max)
        #expect(isRejected(validator.validate(request, now: Self.at(vector.timestamp)), .timestampInFuture))
    }

    @Test func tokenBytesAreTheLiteralQueryCharacters() throws {
        let vectors = try Self.vectors.get()
        let validator = try ProofKeyValidator(discovery: vectors.keys.discovery)
        let vector = try #require(vectors.cases.first { $0.name == "test_proof_current_key1" })
        #expect(vector.accessToken.contains("%2f"))
        let now = Self.at(vector.timestamp)
        #expect(validator.validate(Self.request(vector, accessToken: vector.accessToken), now: now) == .valid)
        // Given the decoded token, the validator still finds the literal one in the URL.
        let decoded = try #require(vector.accessToken.removingPercentEncoding)
        #expect(validator.validate(Self.request(vector, accessToken: decoded), now: now) == .valid)
        // The payload built from the literal token is what was signed; from the decoded one it is not.
        let key = try _RSA.Signing.PublicKey(
            n: try DiscoveryProofKey(modulus: vectors.keys.modulus, exponent: "AQAB").currentKey().modulus,
            e: [0x01, 0x00, 0x01])
        let signature = _RSA.Signing.RSASignature(rawRepresentation: Data(base64Encoded: vector.proof)!)
        func verifies(_ token: String) -> Bool {
            let bytes = ProofKeyPayload(accessToken: token, url: vector.url, timestamp: vector.timestamp).bytes
            return key.isValidSignature(signature, for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5)
        }
        #expect(verifies(vector.accessToken))
        #expect(!verifies(decoded))
    }

    @Test func urlIsUpperCasedButOtherwiseExact() throws {
        let vectors = try Self.vectors.get()
        let validator = try ProofKeyValidator(discovery: vectors.keys.discovery)
        let vector = vectors.cases[0]
        let now = Self.at(vector.timestamp)
        // The URL is upper-cased before signing, so its case does not matter (the token is passed as sent, since
        // the one inside the lower-cased URL is no longer the token).
        var lower = Self.request(vector, accessToken: vector.accessToken)
        lower.url = vector.url.lowercased()
        #expect(validator.validate(lower, now: now) == .valid)
        var tampered = Self.request(vector)
        tampered.url = vector.url.replacingOccurrences(of: "/files/", with: "/files/x")
        #expect(validator.validate(tampered, now: now) != .valid)
        var http = Self.request(vector)
        http.url = vector.url.replacingOccurrences(of: "https://", with: "http://")
        #expect(!validator.validate(http, now: now).isValid)
    }

    @Test func enforcesTheTwentyMinuteWindow() throws {
        let vectors = try Self.vectors.get()
        let validator = try ProofKeyValidator(discovery: vectors.keys.discovery)
        let vector = vectors.cases[0]
        #expect(validator.validate(Self.request(vector), now: Self.at(vector.timestamp, plusMinutes: 19.9)) == .valid)
        #expect(
            isRejected(
                validator.validate(Self.request(vector), now: Self.at(vector.timestamp, plusMinutes: 20.1)),
                .timestampTooOld))
        #expect(isRejected(validator.validate(Self.request(vector)), .timestampTooOld))
        #expect(
            isRejected(
                validator.validate(Self.request(vector), now: Self.at(vector.timestamp, plusMinutes: -20.1)),
                .timestampInFuture))
        #expect(validator.validate(Self.request(vector), now: Self.at(vector.timestamp, plusMinutes: -19.9)) == .valid)
        let strict = try ProofKeyValidator(discovery: vectors.keys.discovery, maximumTimestampAge: 60)
        #expect(
            isRejected(
                strict.validate(Self.request(vector), now: Self.at(vector.timestamp, plusMinutes: 2)), .timestampTooOld)
        )
    }

    @Test func rejectsMissingAndMalformedHeaders() throws {
        let vectors = try Self.vectors.get()
        let validator = try ProofKeyValidator(discovery: vectors.keys.discovery)
        let vector = vectors.cases[0]
        let now = Self.at(vector.timestamp)
        var request = Self.request(vector)
        request.proof = nil
        #expect(isRejected(validator.validate(request, now: now), .missingHeaders))
        request = Self.request(vector)
        request.timeStamp = " "
        #expect(isRejected(validator.validate(request, now: now), .missingHeaders))
        request.timeStamp = "12abc"
        #expect(isRejected(validator.validate(request, now: now), .malformedTimestamp))
        request = Self.request(vector)
        request.proof = "***"
        request.proofOld = nil
        #expect(isRejected(validator.validate(request, now: now), .malformedSignature))
        request.proof = "AAAA"
        #expect(isRejected(validator.validate(request, now: now), .signatureMismatch))
    }

    @Test func readsHeaderFields() throws {
        let vectors = try Self.vectors.get()
        let validator = try ProofKeyValidator(discovery: vectors.keys.discovery)
        let vector = vectors.cases[0]
        var fields = HTTPFields()
        fields[HTTPField.Name("X-WOPI-Proof")!] = vector.proof
        fields[HTTPField.Name("x-wopi-proofold")!] = vector.proofOld
        fields[HTTPField.Name("X-WOPI-TimeStamp")!] = String(vector.timestamp)
        let request = ProofKeyRequest(url: vector.url, headerFields: fields)
        #expect(request.proof == vector.proof && request.proofOld == vector.proofOld)
        #expect(validator.validate(request, now: Self.at(vector.timestamp)) == .valid)
    }

    /// The validator's ProofKeys test group, with freshly generated keys and the decoded token signed
    /// (as the WOPI validator does).
    @Test func validatorScenariosWithGeneratedKeys() throws {
        let current = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let old = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let stranger = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        func components(_ key: _RSA.Signing.PrivateKey) throws -> RSAPublicKeyComponents {
            let primitives = try key.publicKey.getKeyPrimitives()
            return RSAPublicKeyComponents(
                modulus: Array(primitives.modulus), exponent: Array(primitives.publicExponent))
        }
        let validator = try ProofKeyValidator(current: components(current), old: components(old))
        let now = Date()
        let ticks = DotNetTicks.ticks(from: now)
        let token = "tok/en+=="
        let url = "https://wopi.contoso.com/wopi/files/f1?access_token=tok%2Fen%2B%3D%3D&access_token_ttl=0"
        func sign(_ key: _RSA.Signing.PrivateKey, ticks: Int64 = ticks) throws -> String {
            let bytes = ProofKeyPayload(accessToken: token, url: url, timestamp: ticks).bytes
            return try key.signature(for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5).rawRepresentation
                .base64EncodedString()
        }
        func check(_ proof: String, _ proofOld: String, ticks: Int64 = ticks) -> ProofKeyValidationResult {
            validator.validate(
                ProofKeyRequest(url: url, proof: proof, proofOld: proofOld, timeStamp: String(ticks)), now: now)
        }
        // CurrentValid.OldValid
        #expect(check(try sign(current), try sign(old)) == .valid)
        // CurrentValid.OldInvalid
        #expect(check(try sign(current), try sign(stranger)) == .valid)
        // CurrentInvalid.OldValidSignedWithCurrentKey
        #expect(check(try sign(stranger), try sign(current)) == .validWithOldKey)
        // CurrentValidSignedWithOldKey.OldInvalid
        #expect(check(try sign(old), try sign(stranger)) == .validWithOldKey)
        // CurrentInvalid.OldValidSignedWithOldKey
        #expect(isRejected(check(try sign(stranger), try sign(old)), .signatureMismatch))
        // CurrentInvalid.OldInvalid
        #expect(isRejected(check(try sign(stranger), try sign(stranger)), .signatureMismatch))
        let stale = ticks - 21 * DotNetTicks.perMinute
        // TimestampOlderThan20Min
        #expect(isRejected(check(try sign(current, ticks: stale), "", ticks: stale), .timestampTooOld))

        let withoutOld = try ProofKeyValidator(current: components(current))
        #expect(
            !withoutOld.validate(
                ProofKeyRequest(url: url, proof: try sign(old), proofOld: nil, timeStamp: String(ticks)), now: now
            ).isValid)
    }

    @Test func rejectsUnusableKeys() {
        let small = RSAPublicKeyComponents(modulus: [0xC3] + Array(repeating: 0x55, count: 127), exponent: [1, 0, 1])
        #expect(small.bitCount == 1024)
        #expect(throws: ProofKeyError.self) { try ProofKeyValidator(current: small) }
        #expect(throws: ProofKeyError.self) { try ProofKeyValidator(discovery: DiscoveryProofKey()) }
        #expect(throws: ProofKeyError.self) {
            try ProofKeyValidator(discovery: DiscoveryProofKey(modulus: "%%%", exponent: "AQAB"))
        }
    }

    private func isRejected(_ result: ProofKeyValidationResult, _ code: ProofKeyRejection.Code) -> Bool {
        if case .invalid(let rejection) = result { return rejection.code == code }
        return false
    }
}
