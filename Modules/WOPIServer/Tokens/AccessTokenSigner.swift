public import Crypto
public import Foundation
import WOPIModels
import WOPIStorage

/// Mints and verifies WOPI access tokens: HMAC-SHA256-signed, URL-safe, scoped to one user and one resource.
///
/// A token is `base64url(claims) "." base64url(HMAC-SHA256(key, claims))`, made only of URL-safe characters
/// (Docs/wopi-protocol.md §2.3 recommends this so proof-key signing is unambiguous). The claims are the user, the
/// resource, the
/// expiry in epoch milliseconds and the permission. Verification checks the MAC in constant time before reading anything, so a
/// tampered token is rejected without revealing where it differs.
///
/// Every process that shares the key (the host, a CLI minting tokens) accepts the others' tokens.
public struct AccessTokenSigner: Sendable {
    /// The key's HMAC-SHA256 states, prepared once.
    private let mac: PreparedHMAC
    /// Version 2 adds the permission; version 1 tokens (no permission field) still verify, as ``Permission/edit``.
    private static let version = "2"

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
        // One per child of an EnumerateChildren: the claims' bytes are hashed and encoded in place.
        var payload = Self.encode(claims)
        return payload.withUTF8 { bytes in
            let code = mac.code(for: UnsafeRawBufferPointer(bytes))
            return Base64URL.encode(buffer: bytes) + "."
                + code.withUnsafeBytes { Base64URL.encode(buffer: $0.assumingMemoryBound(to: UInt8.self)) }
        }
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
        // Both halves decode into one buffer on the stack (a second "." is outside the alphabet, so it fails the
        // MAC's decoding); the claims are read from the checked bytes.
        var token = token
        let verified = token.withUTF8 { text -> AccessToken? in
            guard let dot = text.firstIndex(of: UInt8(ascii: ".")) else { return nil }
            let payloadText = UnsafeBufferPointer(rebasing: text[..<dot])
            let codeText = UnsafeBufferPointer(rebasing: text[(dot + 1)...])
            let payloadRoom = Base64URL.decodedCount(payloadText.count)
            let room = payloadRoom + Base64URL.decodedCount(codeText.count)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { buffer -> AccessToken? in
                guard
                    let payloadCount = Base64URL.decode(
                        payloadText, into: UnsafeMutableBufferPointer(rebasing: buffer[..<payloadRoom])),
                    let codeCount = Base64URL.decode(
                        codeText, into: UnsafeMutableBufferPointer(rebasing: buffer[payloadRoom...]))
                else { return nil }
                let bytes = UnsafeRawBufferPointer(buffer)
                let payload = UnsafeRawBufferPointer(rebasing: bytes[..<payloadCount])
                // Constant-time comparison of the MAC, before anything in the claims is read.
                guard
                    mac.isValid(
                        UnsafeRawBufferPointer(rebasing: bytes[payloadRoom..<payloadRoom + codeCount]), for: payload)
                else { return nil }
                return Self.decode(payload)
            }
        }
        guard let claims = verified else { throw .invalid }
        guard claims.expiresAt > now else { throw .expired }
        return claims
    }

    private static func encode(_ claims: AccessToken) -> String {
        let resource: String
        switch claims.resource {
        case .file(let id): resource = "f:\(id)"
        case .container(let id): resource = "c:\(id)"
        case .ecosystem: resource = "e:"
        }
        return
            "\(version)|\(claims.userID)|\(resource)|\(EpochMilliseconds.from(claims.expiresAt))|\(claims.permission.rawValue)"
    }

    /// The claims of a verified payload: `version|user|resource|expiry|permission` (version 1: no permission).
    private static func decode(_ payload: UnsafeRawBufferPointer) -> AccessToken? {
        var fields = ClaimFields(payload)
        guard let version = fields.next(), let user = fields.next(), let resource = fields.next(),
            let expiry = fields.next()
        else { return nil }
        let permission: Permission
        switch (String(decoding: version, as: UTF8.self), fields.next()) {
        case ("1", nil): permission = .edit
        case (Self.version, let field?):
            guard let raw = Int(String(decoding: field, as: UTF8.self)), let value = Permission(rawValue: raw),
                value > .none
            else { return nil }
            permission = value
        default: return nil
        }
        guard fields.next() == nil, !user.isEmpty, let userID = String(validating: user, as: UTF8.self),
            let millis = Int64(String(decoding: expiry, as: UTF8.self))
        else { return nil }
        // `f:ID`, `c:ID` or `e:`.
        guard resource.count >= 2, resource[resource.startIndex + 1] == UInt8(ascii: ":") else { return nil }
        let id = ItemID(rawValue: String(decoding: resource.dropFirst(2), as: UTF8.self))
        let claimedResource: AccessToken.Resource
        switch resource[resource.startIndex] {
        case UInt8(ascii: "f"): guard let id else { return nil }; claimedResource = .file(id)
        case UInt8(ascii: "c"): guard let id else { return nil }; claimedResource = .container(id)
        case UInt8(ascii: "e"): claimedResource = .ecosystem
        default: return nil
        }
        return AccessToken(
            userID: userID, resource: claimedResource, expiresAt: EpochMilliseconds.date(millis),
            permission: permission)
    }
}

/// The `|`-separated fields of a token's claims, in order, as slices of the verified bytes.
private struct ClaimFields {
    private let bytes: UnsafeRawBufferPointer
    private var start: Int? = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func next() -> UnsafeRawBufferPointer.SubSequence? {
        guard let fieldStart = start else { return nil }
        let end = bytes[fieldStart...].firstIndex(of: UInt8(ascii: "|"))
        start = end.map { $0 + 1 }
        return bytes[fieldStart..<(end ?? bytes.count)]
    }
}
