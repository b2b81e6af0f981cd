public import Foundation

/// The bytes Office signs for `X-WOPI-Proof` and `X-WOPI-ProofOld` (Docs/wopi-protocol.md §12.3), all integers
/// big-endian:
///
/// ```
/// int32 len(token)  token   (UTF-8 of the access token)
/// int32 len(url)    url     (UTF-8 of the full request URL, upper-cased)
/// int32 8           int64   X-WOPI-TimeStamp
/// ```
///
/// The URL is the external URL Office called (scheme, host, path and every query parameter), percent-encoding
/// kept as sent, upper-cased like .NET's `ToUpperInvariant` (see ``invariantUppercased(_:)``).
///
/// Which token text is signed is ambiguous (§12.6): Microsoft's sample vectors sign the literal query-string
/// characters (still percent-encoded), the validator signs the decoded token. This type signs exactly the
/// `accessToken` it is given; a verifier tries both (see `ProofKeyValidator` in WOPIServer).
public struct ProofKeyPayload: Sendable, Hashable {
    /// The access token text, signed as its UTF-8 bytes.
    public var accessToken: String
    /// The full request URL, as sent (not yet upper-cased).
    public var url: String
    /// `X-WOPI-TimeStamp` in .NET ticks.
    public var timestamp: Int64

    /// Creates a payload.
    public init(accessToken: String, url: String, timestamp: Int64) {
        self.accessToken = accessToken
        self.url = url
        self.timestamp = timestamp
    }

    /// The signed bytes.
    public var bytes: [UInt8] {
        let token = Array(accessToken.utf8)
        let url = Array(Self.invariantUppercased(url).utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 + token.count + 4 + url.count + 4 + 8)
        Self.append(UInt32(truncatingIfNeeded: token.count), to: &bytes)
        bytes += token
        Self.append(UInt32(truncatingIfNeeded: url.count), to: &bytes)
        bytes += url
        Self.append(UInt32(8), to: &bytes)
        Self.append(UInt64(bitPattern: timestamp), to: &bytes)
        return bytes
    }

    /// The signed bytes as `Data`.
    public var data: Data { Data(bytes) }

    /// Upper-cases like .NET's `String.ToUpperInvariant`: a simple one-to-one mapping per character, so `ß`
    /// stays `ß` (Swift's `uppercased()` would write `SS`). A scalar whose full upper-case form has more than one
    /// scalar is kept as it is; for ASCII URLs this is plain A–Z upper-casing.
    public static func invariantUppercased(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                scalars.append(("a"..."z").contains(scalar) ? Unicode.Scalar(scalar.value - 32)! : scalar)
                continue
            }
            let upper = scalar.properties.uppercaseMapping.unicodeScalars
            scalars.append(upper.count == 1 ? upper.first! : scalar)
        }
        return String(scalars)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
