import Foundation

/// An RSA public key as big-endian modulus and exponent bytes, as discovery publishes proof keys (Docs/wopi-protocol.md
/// §12.5).
///
/// Hand the bytes to a crypto library, for example swift-crypto's `_RSA.Signing.PublicKey(n:e:)`.
public struct RSAPublicKeyComponents: Sendable, Hashable {
    /// The modulus, big-endian, without leading zero bytes.
    public var modulus: [UInt8]
    /// The public exponent, big-endian, without leading zero bytes.
    public var exponent: [UInt8]

    /// Creates the components, dropping leading zero bytes.
    public init(modulus: [UInt8], exponent: [UInt8]) {
        self.modulus = Array(modulus.drop { $0 == 0 })
        self.exponent = Array(exponent.drop { $0 == 0 })
    }

    /// The size of the modulus in bits.
    public var bitCount: Int {
        guard let first = modulus.first else { return 0 }
        return modulus.count * 8 - first.leadingZeroBitCount
    }

    /// Reads the discovery `modulus` and `exponent` attributes (base64, big-endian).
    ///
    /// - Throws: ``WOPIFormatError`` when either is not base64 or is zero.
    public init(base64Modulus: String, base64Exponent: String) throws(WOPIFormatError) {
        guard let modulus = Data(base64Encoded: base64Modulus.trimmingWhiteSpace()),
            let exponent = Data(base64Encoded: base64Exponent.trimmingWhiteSpace())
        else {
            throw WOPIFormatError(
                .invalidValue, format: "discovery proof-key",
                "The modulus or exponent is not "
                    + "valid base64.")
        }
        self.init(modulus: Array(modulus), exponent: Array(exponent))
        guard !self.modulus.isEmpty, !self.exponent.isEmpty else {
            throw WOPIFormatError(.invalidValue, format: "discovery proof-key", "The modulus or exponent is zero.")
        }
    }

    /// Reads a .NET `ExportCspBlob` PUBLICKEYBLOB (the discovery `value` attribute, base64): a 20-byte header
    /// (`06 02 00 00 00 A4 00 00`, `RSA1`, bit length and exponent little-endian) and the modulus little-endian.
    ///
    /// - Throws: ``WOPIFormatError`` when the value is not base64 or not an RSA public-key blob.
    public init(cspBlobBase64: String) throws(WOPIFormatError) {
        guard let data = Data(base64Encoded: cspBlobBase64.trimmingWhiteSpace()) else {
            throw WOPIFormatError(.invalidValue, format: "discovery proof-key", "The CSP blob is not valid base64.")
        }
        let bytes = Array(data)
        func littleEndian(_ offset: Int) -> Int {
            (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        guard bytes.count >= 20, bytes[0] == 0x06, bytes[1] == 0x02, Array(bytes[8..<12]) == Array("RSA1".utf8)
        else {
            throw WOPIFormatError(
                .invalidValue, format: "discovery proof-key",
                "The CSP blob is not an RSA "
                    + "PUBLICKEYBLOB (expected type 06, version 02 and magic RSA1).")
        }
        let bitLength = littleEndian(12)
        let modulusLength = (bitLength + 7) / 8
        guard bitLength > 0, bytes.count >= 20 + modulusLength else {
            throw WOPIFormatError(
                .invalidValue, format: "discovery proof-key",
                "The CSP blob is shorter than its "
                    + "\(bitLength)-bit modulus.")
        }
        let exponent = withUnsafeBytes(of: UInt32(littleEndian(16)).bigEndian) { Array($0) }
        self.init(modulus: bytes[20..<(20 + modulusLength)].reversed(), exponent: exponent)
    }
}
