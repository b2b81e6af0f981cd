import Crypto
public import Foundation
import Synchronization
import WOPIModels
public import WOPIServer
public import _CryptoExtras

/// A WOPI client's proof key pair, for tests that play the client: it publishes the public half in discovery XML
/// and signs requests the way Office for the web does (Docs/wopi-protocol.md §12.3).
public struct ProofSigner: Sendable {
    /// The private key.
    public let key: _RSA.Signing.PrivateKey

    /// A fresh 2048-bit key.
    public init() throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    }

    /// The public key's modulus and exponent, base64, as discovery's `modulus` and `exponent` carry them.
    public func publicComponents() throws -> (modulus: String, exponent: String) {
        let primitives = try key.publicKey.getKeyPrimitives()
        return (primitives.modulus.base64EncodedString(), primitives.publicExponent.base64EncodedString())
    }

    /// The base64 signature of a request to `url` with `token` at `ticks`.
    public func sign(url: String, token: String, ticks: Int64) throws -> String {
        let bytes = ProofKeyPayload(accessToken: token, url: url, timestamp: ticks).bytes
        return try key.signature(for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5).rawRepresentation
            .base64EncodedString()
    }

    /// The proof headers for a request to `url` (whose `access_token` query value is `token`) made at `date`:
    /// `X-WOPI-Proof` by `self`, `X-WOPI-ProofOld` by `old` when given.
    public func headers(url: String, token: String, at date: Date = Date(), old: ProofSigner? = nil) throws -> [String:
        String]
    {
        let ticks = DotNetTicks.ticks(from: date)
        var headers = ["X-WOPI-Proof": try sign(url: url, token: token, ticks: ticks), "X-WOPI-TimeStamp": "\(ticks)"]
        if let old { headers["X-WOPI-ProofOld"] = try old.sign(url: url, token: token, ticks: ticks) }
        return headers
    }
}

/// Discovery XML written by a test: `Word` (view, edit, editnew for `.docx`, each at `clientURL/we/ACTION.aspx`) and
/// `OneNote` (by progid), and a proof key; with `capabilities`, the app `Capabilities` whose `getinfo` action names
/// `clientURL/hosting/capabilities`, as Collabora Online and ONLYOFFICE publish it.
public enum TestDiscoveryXML {
    public static func make(
        clientURL: String, current: ProofSigner?, old: ProofSigner? = nil, capabilities: Bool = false
    ) throws -> String {
        func urlsrc(_ action: String) -> String {
            "\(clientURL)/we/\(action).aspx?&lt;ui=UI_LLCC&amp;&gt;&lt;rs=DC_LLCC&amp;&gt;"
                + "&lt;dchat=DISABLE_CHAT&amp;&gt;&lt;IsLicensedUser=BUSINESS_USER&amp;&gt;&lt;embed=EMBEDDED&amp;&gt;"
                + "&lt;testcategory=VALIDATOR_TEST_CATEGORY&amp;&gt;&lt;perfstats=PERFSTATS&amp;&gt;"
                + "&lt;wopisrc=WOPI_SOURCE&amp;&gt;"
        }
        var proofKey = ""
        if let current {
            let key = try current.publicComponents()
            proofKey = #"<proof-key modulus="\#(key.modulus)" exponent="\#(key.exponent)""#
            if let old {
                let oldKey = try old.publicComponents()
                proofKey += #" oldmodulus="\#(oldKey.modulus)" oldexponent="\#(oldKey.exponent)""#
            }
            proofKey += "/>"
        }
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <wopi-discovery>
              <net-zone name="external-http">
                <app name="Word" favIconUrl="\(clientURL)/favicon.ico" checkLicense="true">
                  <action name="view" ext="docx" default="true" urlsrc="\(urlsrc("view"))"/>
                  <action name="edit" ext="docx" requires="locks,update" urlsrc="\(urlsrc("edit"))"/>
                  <action name="editnew" ext="docx" requires="locks,update" urlsrc="\(urlsrc("editnew"))"/>
                </app>
                <app name="OneNote">
                  <action name="view" progid="OneNote.Notebook" urlsrc="\(clientURL)/o/onenoteframe.aspx?&lt;wopisrc=WOPI_SOURCE&amp;&gt;"/>
                </app>
                \(capabilities ? #"<app name="Capabilities"><action name="getinfo" ext="" urlsrc="\#(clientURL)/hosting/capabilities"/></app>"# : "")
              </net-zone>
              \(proofKey)
            </wopi-discovery>
            """
    }
}

/// A discovery document that a test can change, served through a fetch function that counts its calls.
public final class ChangingDiscovery: Sendable {
    private let state: Mutex<(xml: String?, fetches: Int)>

    public init(_ xml: String?) { state = Mutex((xml, 0)) }

    /// Replaces the document; `nil` makes the next fetches fail.
    public func set(_ xml: String?) { state.withLock { $0.xml = xml } }

    /// How many fetches happened.
    public var fetches: Int { state.withLock { $0.fetches } }

    public var source: DiscoverySource {
        DiscoverySource("test discovery") { [self] in
            let xml = state.withLock { state -> String? in
                state.fetches += 1
                return state.xml
            }
            guard let xml else { throw URLError(.cannotConnectToHost) }
            return Data(xml.utf8)
        }
    }
}
