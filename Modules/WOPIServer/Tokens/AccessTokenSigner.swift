public import Crypto
public import Foundation
import WOPIModels
import WOPIStorage

/// Mints and verifies WOPI access tokens: HMAC-SHA256-signed, URL-safe, scoped to one user and one resource.
///
/// A token is `base64url(claims) "." base64url(HMAC-SHA256(key, claims))`, made only of URL-safe characters
/// (Docs/wopi-protocol.md §2.3 recommends this so proof-key signing is unambiguous). The claims are the user, the
/// user's credential stamp, the resource, the expiry in epoch milliseconds and the permission. Verification checks the MAC in constant time before reading anything, so a
/// tampered token is rejected without revealing where it differs.
///
/// Every process that shares the key (the host, a CLI minting tokens) accepts the others' tokens.
public struct AccessTokenSigner: Sendable {
    /// The key's HMAC-SHA256 states, prepared once.
    private let mac: PreparedHMAC
    /// Version 3 adds the credential stamp, version 2 the permission; version 1 and 2 tokens still verify (version 1
    /// as ``Permission/edit``), without a stamp.
    private static let version = "3"

    /// Creates a signer with a key of at least 32 bytes.
    public init(key: SymmetricKey) {
        precondition(key.bitCount >= 256, "A WOPI token key must have at least 256 bits.")
        mac = PreparedHMAC(key: key)
    }

    /// A signer whose key is derived from `key` for one `purpose` (share links, `FileUrl`s): what it mints is
    /// not a valid access token, and no access token is valid for it.
    package init(derivingFrom key: SymmetricKey, purpose: String) {
        let derived = HMAC<SHA256>.authenticationCode(for: Data("wopikit \(purpose)".utf8), using: key)
        self.init(key: SymmetricKey(data: Data(derived)))
    }

    /// Mints a token for `claims`.
    public func mint(_ claims: AccessToken) -> String {
        var token: [UInt8] = []
        var payload: [UInt8] = []
        token.reserveCapacity(184)
        payload.reserveCapacity(128)
        appendToken(for: claims, to: &token, payload: &payload)
        return String(decoding: token, as: UTF8.self)
    }

    /// Appends the token ``mint(_:)`` returns for `claims` to `output`, with `payload` as the space for the
    /// claims' bytes: a listing mints one token per child into buffers it reuses, so a token costs its HMAC and
    /// no allocation of its own.
    package func appendToken(for claims: AccessToken, to output: inout [UInt8], payload: inout [UInt8]) {
        payload.removeAll(keepingCapacity: true)
        Self.encode(claims, to: &payload)
        let code = payload.withUnsafeBytes { mac.code(for: $0) }
        payload.withUnsafeBytes { Base64URL.append($0, to: &output) }
        output.append(UInt8(ascii: "."))
        code.withUnsafeBytes { Base64URL.append($0, to: &output) }
    }

    /// Why a token was refused.
    public enum Rejection: Error, Sendable, Equatable {
        /// Not a token of ours, or tampered with.
        case invalid
        /// A genuine token past its expiry.
        case expired
    }

    /// Verifies a token and returns its claims.
    ///
    /// - Throws: ``Rejection/invalid`` for a malformed or tampered token, ``Rejection/expired`` when it lapsed.
    public func verify(_ token: String, now: Date = Date()) throws(Rejection) -> AccessToken {
        // Both halves decode in place (a second "." is outside the alphabet, so it fails the MAC's decoding).
        guard let dot = token.utf8.firstIndex(of: UInt8(ascii: ".")),
            let payload = Base64URL.decode(token[..<dot]),
            let code = Base64URL.decode(token[token.utf8.index(after: dot)...])
        else { throw .invalid }
        // Constant-time comparison of the MAC.
        guard mac.isValid(code, for: payload) else { throw .invalid }
        guard let text = String(validating: payload, as: UTF8.self), let claims = Self.decode(text) else {
            throw .invalid
        }
        guard claims.expiresAt > now else { throw .expired }
        return claims
    }

    /// Appends the claims' text, `version|user|stamp|resource|expiry|permission`, to `payload`.
    private static func encode(_ claims: AccessToken, to payload: inout [UInt8]) {
        let separator = UInt8(ascii: "|")
        payload.append(contentsOf: version.utf8)
        payload.append(separator)
        payload.append(contentsOf: claims.userID.utf8)
        payload.append(separator)
        // A stamp is base64url (empty for a user without a password), never a separator; `*` is no stamp.
        payload.append(contentsOf: (claims.credentialStamp ?? "*").utf8)
        payload.append(separator)
        claims.resource.append(to: &payload, file: "f:", container: "c:", ecosystem: "e:")
        payload.append(separator)
        // Small integers' strings live in the string value itself: no allocation.
        payload.append(contentsOf: String(EpochMilliseconds.from(claims.expiresAt)).utf8)
        payload.append(separator)
        payload.append(contentsOf: String(claims.permission.rawValue).utf8)
    }

    private static func decode(_ text: String) -> AccessToken? {
        // No field but the user ID is other than ASCII.
        var fields = text.fields(separatedBy: UInt8(ascii: "|"), omittingEmpty: false)
        let permission: Permission
        var stamp: String?
        switch (fields.first.map(String.init), fields.count) {
        case ("1", 4): permission = .edit
        case ("2", 5), (version, 6):
            if fields.count == 6 {
                let field = fields.remove(at: 2)
                stamp = field == "*" ? nil : String(field)
            }
            guard let raw = Int(fields[4]), let value = Permission(rawValue: raw), value > .none else { return nil }
            permission = value
        default: return nil
        }
        guard !fields[1].isEmpty, let millis = Int64(fields[3]) else { return nil }
        let resource: AccessToken.Resource
        let kind = fields[2].prefix(2)
        let id = String(fields[2].dropFirst(2))
        switch kind {
        case "f:": guard let itemID = ItemID(rawValue: id) else { return nil }; resource = .file(itemID)
        case "c:": guard let itemID = ItemID(rawValue: id) else { return nil }; resource = .container(itemID)
        case "e:": resource = .ecosystem
        default: return nil
        }
        return AccessToken(
            userID: String(fields[1]), resource: resource, expiresAt: EpochMilliseconds.date(millis),
            permission: permission, credentialStamp: stamp)
    }
}
