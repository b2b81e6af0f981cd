import Foundation
import Testing

@testable import WOPIModels

@Suite("Shared encodings: percent/form, base64url, constant time, HTML")
struct EncodingTests {
    @Test func formPairsRoundTripInOrderWithRepeats() throws {
        let pairs = [("a b", "c+d&e=f"), ("ünï", "%/?#"), ("empty", ""), ("a b", "again")]
        let encoded = PercentEncoding.encodePairs(pairs.map { (name: $0.0, value: $0.1) })
        #expect(!encoded.contains(" ") && !encoded.contains("+"))
        let decoded = try #require(PercentEncoding.decodePairs(encoded))
        #expect(decoded.map(\.name) == pairs.map(\.0))
        #expect(decoded.map(\.value) == pairs.map(\.1))
    }

    @Test func decodingIsStrictAndFormAware() {
        #expect(PercentEncoding.decodePairs("a=%ZZ") == nil)
        #expect(PercentEncoding.decodePairs("a=%E2%82") == nil)  // not UTF-8
        #expect(PercentEncoding.decodePairs("a=x+y")?.first?.value == "x y")
        #expect(PercentEncoding.decode("x+y") == "x+y")  // plain percent-decoding keeps '+'
        #expect(PercentEncoding.decodePairs("&&a&b=").map { $0.map(\.name) } == ["a", "b"])
        // Split at the bytes `&` and `=`, even where a combining mark follows them (one character, two pairs).
        let combining = PercentEncoding.decodePairs("a=1&\u{301}b=\u{301}2")
        #expect(combining.map { $0.map(\.name) } == ["a", "\u{301}b"])
        #expect(combining.map { $0.map(\.value) } == ["1", "\u{301}2"])
    }

    @Test func fieldsSplitAtTheSeparatorByte() {
        #expect("a|b||c|".fields(separatedBy: UInt8(ascii: "|"), omittingEmpty: false) == ["a", "b", "", "c", ""])
        #expect("".fields(separatedBy: UInt8(ascii: "|"), omittingEmpty: false) == [""])
        let path = "//wopi//files/x/".fields(separatedBy: UInt8(ascii: "/"), omittingEmpty: true)
        #expect(path == ["wopi", "files", "x"])
        #expect("/".fields(separatedBy: UInt8(ascii: "/"), omittingEmpty: true).isEmpty)
        // A combining mark after the separator makes one character of the two, and still splits.
        #expect("é|\u{301}x".fields(separatedBy: UInt8(ascii: "|"), omittingEmpty: false) == ["é", "\u{301}x"])
    }

    @Test func encodingEscapesEverythingButUnreserved() {
        #expect(PercentEncoding.encode("A-z_0.~ +&=/é") == "A-z_0.~%20%2B%26%3D%2F%C3%A9")
        #expect(
            PercentEncoding.encode("a/b:c", allowing: { $0 == UInt8(ascii: "/") || PercentEncoding.isUnreserved($0) })
                == "a/b%3Ac")
    }

    @Test(arguments: 0..<40)
    func base64URLMatchesFoundationWithoutPadding(length: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let expected = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(Base64URL.encode(bytes) == expected)
        #expect(Base64URL.decode(expected) == bytes)
    }

    @Test func base64URLRefusesPaddingForeignCharactersAndSecondSpellings() {
        #expect(Base64URL.decode("AA==") == nil)
        #expect(Base64URL.decode("A+/A") == nil)
        #expect(Base64URL.decode("A") == nil)  // impossible length
        #expect(Base64URL.decode("AA") == [0])
        #expect(Base64URL.decode("AB") == nil)  // unused bits set: a second spelling of [0]
        #expect(Base64URL.decode("") == [])
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals("secret", "secret"))
        #expect(!ConstantTime.equals("secret", "secreT"))
        #expect(!ConstantTime.equals("secret", "secret!"))
    }

    @Test func htmlEscaping() {
        #expect(HTMLEscaping.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }
}
