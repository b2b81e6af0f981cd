/// The `<proof-key>` element of discovery: the public keys that sign Office's requests (Docs/wopi-protocol.md §12.5).
///
/// All values are base64 as in the XML. ``currentKey()`` and ``oldKey()`` turn them into key components, from
/// `modulus`/`exponent` when present, else from the .NET CSP blob in `value`/`oldvalue`.
public struct DiscoveryProofKey: Sendable, Hashable {
    /// `value`: the current key as a .NET `ExportCspBlob` PUBLICKEYBLOB.
    public var value: String?
    /// `modulus`: the current key's modulus, big-endian.
    public var modulus: String?
    /// `exponent`: the current key's public exponent, big-endian (usually `AQAB`).
    public var exponent: String?
    /// `oldvalue`: the previous key as a CSP blob.
    public var oldValue: String?
    /// `oldmodulus`: the previous key's modulus.
    public var oldModulus: String?
    /// `oldexponent`: the previous key's public exponent.
    public var oldExponent: String?

    /// Creates the element's values.
    public init(
        value: String? = nil, modulus: String? = nil, exponent: String? = nil, oldValue: String? = nil,
        oldModulus: String? = nil, oldExponent: String? = nil
    ) {
        self.value = value
        self.modulus = modulus
        self.exponent = exponent
        self.oldValue = oldValue
        self.oldModulus = oldModulus
        self.oldExponent = oldExponent
    }

    /// The current key.
    ///
    /// - Throws: ``WOPIFormatError`` when neither `modulus`/`exponent` nor `value` holds a readable key.
    public func currentKey() throws(WOPIFormatError) -> RSAPublicKeyComponents {
        guard let key = try Self.key(modulus: modulus, exponent: exponent, blob: value) else {
            throw WOPIFormatError(
                .missingField, format: "discovery proof-key",
                "The proof-key element has neither "
                    + "modulus and exponent nor value; fetch discovery again.")
        }
        return key
    }

    /// The previous key, or `nil` when discovery has none.
    ///
    /// - Throws: ``WOPIFormatError`` when the old key's values are present but unreadable.
    public func oldKey() throws(WOPIFormatError) -> RSAPublicKeyComponents? {
        try Self.key(modulus: oldModulus, exponent: oldExponent, blob: oldValue)
    }

    private static func key(modulus: String?, exponent: String?, blob: String?) throws(WOPIFormatError)
        -> RSAPublicKeyComponents?
    {
        if let modulus, !modulus.isEmpty, let exponent, !exponent.isEmpty {
            return try RSAPublicKeyComponents(base64Modulus: modulus, base64Exponent: exponent)
        }
        if let blob, !blob.isEmpty {
            return try RSAPublicKeyComponents(cspBlobBase64: blob)
        }
        return nil
    }
}
