import Crypto
import Foundation
import WOPIModels
import _CryptoExtras

/// The validator's own proof key pairs when it plays Office for the web: a current and an old key, both published
/// in the discovery XML the test serves to `wopi-host serve --discovery-url`. Every request is signed as Office
/// for the web signs it (Docs/wopi-protocol.md §12.3): `X-WOPI-Proof` with the current key, `X-WOPI-ProofOld`
/// with the old key, over the access token, the request URL and `X-WOPI-TimeStamp` (.NET ticks).
struct ValidatorProofKeys: Sendable {
    let current: _RSA.Signing.PrivateKey
    let old: _RSA.Signing.PrivateKey

    /// Two fresh 2048-bit keys.
    init() throws {
        current = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        old = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    }

    /// The proof headers of a request to `url` carrying `token`, made at `ticks`, in the validator's order.
    func headers(url: String, token: String, ticks: Int64) throws -> [(String, String)] {
        let digest = SHA256.hash(data: ProofKeyPayload(accessToken: token, url: url, timestamp: ticks).bytes)
        func sign(_ key: _RSA.Signing.PrivateKey) throws -> String {
            try key.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation.base64EncodedString()
        }
        return [
            (ProofKeyMutation.proofHeader, try sign(current)), (ProofKeyMutation.proofOldHeader, try sign(old)),
            (ProofKeyMutation.timestampHeader, String(ticks)),
        ]
    }

    /// A discovery document with one Word action and the `proof-key` element carrying both public keys.
    func discoveryXML(clientURL: String) throws -> String {
        func components(_ key: _RSA.Signing.PrivateKey) throws -> (modulus: String, exponent: String) {
            let primitives = try key.publicKey.getKeyPrimitives()
            return (primitives.modulus.base64EncodedString(), primitives.publicExponent.base64EncodedString())
        }
        let now = try components(current)
        let before = try components(old)
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <wopi-discovery>
              <net-zone name="external-http">
                <app name="Word" favIconUrl="\(clientURL)/favicon.ico" checkLicense="true">
                  <action name="view" ext="docx" default="true" urlsrc="\(clientURL)/we/view.aspx?&lt;wopisrc=WOPI_SOURCE&amp;&gt;"/>
                </app>
              </net-zone>
              <proof-key modulus="\(now.modulus)" exponent="\(now.exponent)" oldmodulus="\(before.modulus)" oldexponent="\(before.exponent)"/>
            </wopi-discovery>
            """
    }
}
