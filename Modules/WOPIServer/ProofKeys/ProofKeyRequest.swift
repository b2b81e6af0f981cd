import Foundation
public import HTTPTypes
import WOPIModels

/// The parts of a WOPI request that its proof-key signature covers.
public struct ProofKeyRequest: Sendable, Hashable {
    /// The full external URL Office called, as sent: scheme, host, path and every query parameter, with the
    /// percent-encoding unchanged. Behind a TLS-terminating proxy, rebuild the public `https://` URL.
    public var url: String
    /// The access token, when the caller has it separately. See ``ProofKeyValidator`` for which token texts are
    /// tried.
    public var accessToken: String?
    /// `X-WOPI-Proof`.
    public var proof: String?
    /// `X-WOPI-ProofOld`.
    public var proofOld: String?
    /// `X-WOPI-TimeStamp`.
    public var timeStamp: String?

    /// Creates a request from its parts.
    public init(url: String, accessToken: String? = nil, proof: String?, proofOld: String?, timeStamp: String?) {
        self.url = url
        self.accessToken = accessToken
        self.proof = proof
        self.proofOld = proofOld
        self.timeStamp = timeStamp
    }

    /// Creates a request from the URL and the request's header fields (`X-WOPI-Proof`, `X-WOPI-ProofOld`,
    /// `X-WOPI-TimeStamp`).
    public init(url: String, headerFields: HTTPFields, accessToken: String? = nil) {
        func value(_ name: String) -> String? {
            HTTPField.Name(name).flatMap { headerFields[$0] }
        }
        self.init(
            url: url, accessToken: accessToken, proof: value(WOPIHeader.proof), proofOld: value(WOPIHeader.proofOld),
            timeStamp: value(WOPIHeader.timeStamp))
    }

    /// The token texts to try, in order: the given token, the raw `access_token` value of the URL's query (the
    /// literal characters, as Microsoft's sample vectors sign it), and that value percent-decoded (as the WOPI
    /// validator signs it). Duplicates are removed.
    var candidateTokens: [String] {
        var candidates: [String] = []
        func add(_ token: String?) {
            if let token, !candidates.contains(token) { candidates.append(token) }
        }
        add(accessToken)
        let raw = rawQueryValue("access_token")
        add(raw)
        add(raw?.removingPercentEncoding)
        return candidates
    }

    private func rawQueryValue(_ name: String) -> String? {
        guard let mark = url.firstIndex(of: "?") else { return nil }
        let query = url[url.index(after: mark)...].prefix { $0 != "#" }
        return PercentEncoding.splitPairs(query).first { $0.name.lowercased() == name }.map { String($0.value) }
    }
}
