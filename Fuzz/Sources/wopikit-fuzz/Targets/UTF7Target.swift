import WOPIModels

extension FuzzTarget {
    /// UTF-7 (`X-WOPI-SuggestedTarget`, `X-WOPI-RelativeTarget`, …): strict and lenient decoding of any text, and
    /// the round trip `decode(encode(s)) == s` for any string.
    static let utf7 = FuzzTarget(name: "utf7") { input in
        let text = input.text
        if let decoded = try? UTF7.decode(text) {
            fuzzCheck((try? UTF7.decode(UTF7.encode(decoded))) == decoded, "UTF-7 round trip of a decoded value")
        }
        _ = UTF7.decodeLeniently(text)
        fuzzCheck((try? UTF7.decode(UTF7.encode(text))) == text, "UTF-7 round trip of \(text.debugDescription)")
    }
}
