import Crypto
import Foundation
import HTTPTypes
import WOPIModels
import WOPIServer
import _CryptoExtras

/// A key pair made once per process: the validator's public key, and a private key to sign some inputs properly so
/// that the signature check itself is reached with matching and mismatching texts.
private let proofKeyPair: (key: _RSA.Signing.PrivateKey, validator: ProofKeyValidator) = {
    let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    let primitives = try! key.publicKey.getKeyPrimitives()
    let components = RSAPublicKeyComponents(
        modulus: Array(primitives.modulus), exponent: Array(primitives.publicExponent))
    return (key, try! ProofKeyValidator(current: components, old: components))
}()

extension FuzzTarget {
    /// Proof keys: the signed payload, the `X-WOPI-Proof`/`X-WOPI-ProofOld`/`X-WOPI-TimeStamp` headers through the
    /// validator, and the key encodings discovery publishes (CSP blob, base64 modulus and exponent).
    ///
    /// Input: `url\ntoken\ntimestamp\nproof\nproofOld`, after a selector byte.
    static let proofKey = FuzzTarget(name: "proof-key") { input in
        let (choice, rest) = input.selector
        let fields = rest.fields(5)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        switch choice % 4 {
        case 0:
            _ = try? RSAPublicKeyComponents(cspBlobBase64: fields[0])
            _ = try? RSAPublicKeyComponents(base64Modulus: fields[0], base64Exponent: fields[1])
            _ = ProofKeyPayload.invariantUppercased(fields[0])
        case 1:
            // Signed properly over the text as given: a time stamp that reads must validate.
            let ticks = Int64(fields[2]) ?? DotNetTicks.ticks(from: now)
            let payload = ProofKeyPayload(accessToken: fields[1], url: fields[0], timestamp: ticks)
            let signature = try! proofKeyPair.key.signature(
                for: SHA256.hash(data: payload.bytes), padding: .insecurePKCS1v1_5)
            let request = ProofKeyRequest(
                url: fields[0], accessToken: fields[1], proof: signature.rawRepresentation.base64EncodedString(),
                proofOld: nil, timeStamp: String(ticks))
            let result = proofKeyPair.validator.validate(request, now: DotNetTicks.date(fromTicks: ticks))
            fuzzCheck(result.isValid, "a proper signature was refused: \(result)")
        default:
            var headers = HTTPFields()
            for (name, value) in [
                (WOPIHeader.timeStamp, fields[2]), (WOPIHeader.proof, fields[3]), (WOPIHeader.proofOld, fields[4]),
            ] {
                headers[HTTPField.Name(name)!] = value
            }
            let token = choice & 4 == 0 ? fields[1] : nil
            let request = ProofKeyRequest(url: fields[0], headerFields: headers, accessToken: token)
            _ = proofKeyPair.validator.validate(request, now: now)
        }
    }
}
