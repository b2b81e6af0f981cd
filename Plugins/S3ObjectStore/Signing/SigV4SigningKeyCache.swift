package import Crypto
import Synchronization

/// The signing keys of one secret, derived once per date, region and service (four HMACs) and reused by every
/// request signed that day. It holds at most a few entries: a new date clears the older ones.
package final class SigV4SigningKeyCache: Sendable {
    private let secret: [UInt8]
    private let keys = Mutex<[String: SymmetricKey]>([:])

    /// A cache for the keys of `secretAccessKey`.
    package init(secretAccessKey: String) {
        secret = Array(("AWS4" + secretAccessKey).utf8)
    }

    /// The signing key of `date` (`yyyyMMdd`), `region` and `service`.
    package func key(date: Substring, region: String, service: String) -> SymmetricKey {
        let scope = "\(date)/\(region)/\(service)"
        if let key = keys.withLock({ $0[scope] }) { return key }
        let dateKey = Self.hmac(SymmetricKey(data: secret), date)
        let regionKey = Self.hmac(dateKey, region)
        let serviceKey = Self.hmac(regionKey, service)
        let signingKey = Self.hmac(serviceKey, "aws4_request")
        keys.withLock { keys in
            // Yesterday's keys are no longer needed once a request is signed with a newer date.
            if keys.count >= 8 { keys.removeAll() }
            keys[scope] = signingKey
        }
        return signingKey
    }

    /// How many keys are cached (for tests).
    package var count: Int { keys.withLock { $0.count } }

    private static func hmac(_ key: SymmetricKey, _ message: some StringProtocol) -> SymmetricKey {
        SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Array(message.utf8), using: key))
    }
}
