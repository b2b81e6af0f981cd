import Testing
import WOPIModels

@Suite struct UTF7Tests {
    /// Every row of the Docs/wopi-protocol.md §14.2 table: (header value, decoded).
    static let documentedRows: [(String, String)] = [
        ("madeup+AF8-name.wopitestx", "madeup_name.wopitestx"),
        ("madeup_name.wopitestx", "madeup_name.wopitestx"),
        ("R+AOk-sum+AOk- 2024.docx", "Résumé 2024.docx"),
        ("R+AOk-sum+AOk 2024.docx", "Résumé 2024.docx"),
        ("a+-b.docx", "a+b.docx"),
        ("+ZeVnLA-.docx", "日本.docx"),
        ("+ZeVnLA.docx", "日本.docx"),
        ("x+AH4-y.docx", "x~y.docx"),
    ]

    @Test(arguments: documentedRows)
    func decodesDigestTable(encoded: String, decoded: String) throws {
        #expect(try UTF7.decode(encoded) == decoded)
        #expect(UTF7.decodeLeniently(encoded) == decoded)
    }

    @Test func encodesAsDotNetDoes() {
        #expect(UTF7.encode("madeup_name.wopitestx") == "madeup+AF8-name.wopitestx")
        #expect(UTF7.encode("Résumé 2024.docx") == "R+AOk-sum+AOk- 2024.docx")
        #expect(UTF7.encode("a+b.docx") == "a+-b.docx")
        #expect(UTF7.encode("日本.docx") == "+ZeVnLA-.docx")
        #expect(UTF7.encode("x~y.docx") == "x+AH4-y.docx")
        #expect(UTF7.encode("Hi Mom -☺-!") == "Hi Mom -+Jjo--+ACE-")
        #expect(UTF7.encode("") == "")
        #expect(UTF7.encode("A-Za-z0-9'(),-./:? ") == "A-Za-z0-9'(),-./:? ")
    }

    @Test func decodesRFCExamplesAndOptionalDirectCharacters() throws {
        #expect(try UTF7.decode("Hi Mom -+Jjo--!") == "Hi Mom -☺-!")
        #expect(try UTF7.decode("A+ImIDkQ.") == "A≢Α.")
        #expect(try UTF7.decode("+ZeVnLIqe-") == "日本語")
        #expect(try UTF7.decode("a!\"#$%&*;<=>@[]^_`{|}b") == "a!\"#$%&*;<=>@[]^_`{|}b")
        #expect(try UTF7.decode("tab\tand\nline") == "tab\tand\nline")
        #expect(try UTF7.decode("+-+-") == "++")
        #expect(try UTF7.decode("") == "")
    }

    @Test func decodesSurrogatePairs() throws {
        let emoji = "😀 file.docx"
        let encoded = UTF7.encode(emoji)
        #expect(encoded == "+2D3eAA- file.docx")
        #expect(try UTF7.decode(encoded) == emoji)
        #expect(try UTF7.decode("+2D3eAA file.docx") == emoji)
    }

    @Test func rejectsNonASCII() {
        #expect(throws: UTF7Error.self) { try UTF7.decode("Résumé.docx") }
        do {
            _ = try UTF7.decode("ab日本")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .nonASCII)
            #expect(error.offset == 2)
        }
    }

    @Test(arguments: [
        ("a+", UTF7Error.Code.emptyShift),
        ("a+!b", .emptyShift),
        ("+A-", .partialCharacter),
        ("+AGEx-", .partialCharacter),
        ("+AGF-", .nonZeroPaddingBits),
        ("+2D0-", .unpairedSurrogate),  // high surrogate alone
        ("+3gA-", .unpairedSurrogate),  // low surrogate alone
        ("+2D3YPQ-", .unpairedSurrogate),  // high followed by high
    ])
    func rejectsMalformedInput(input: String, code: UTF7Error.Code) {
        do {
            let value = try UTF7.decode(input)
            Issue.record("decoded \(input) to \(value), expected \(code)")
        } catch {
            #expect(error.code == code)
            #expect(!error.message.isEmpty)
        }
    }

    @Test func leniencyReturnsInvalidInputUnchanged() {
        #expect(UTF7.decodeLeniently("Résumé.docx") == "Résumé.docx")
        #expect(UTF7.decodeLeniently("C++ notes.docx") == "C++ notes.docx")
        #expect(UTF7.decodeLeniently("a+") == "a+")
        #expect(UTF7.decodeLeniently("+AGE-") == "a")
    }

    @Test func randomStringsRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        let pool: [Character] = Array("aZ09 +-_.~!/:?'()," + "éü日本語😀👍🏽\u{10FFFF}\u{0}\t\\\"%")
        for _ in 0..<2000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).map { _ in randomCharacter(pool, &generator) })
            let encoded = UTF7.encode(text)
            #expect(encoded.utf8.allSatisfy { $0 < 0x80 }, "not ASCII: \(encoded)")
            #expect(try UTF7.decode(encoded) == text, "round trip of \(text.debugDescription) via \(encoded)")
        }
    }

    @Test func randomASCIINeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        let pool = Array("+-AZaz09/+-!~ \u{7F}")
        for _ in 0..<3000 {
            let text = String((0..<Int.random(in: 0...16, using: &generator)).map { _ in pool.randomElement()! })
            if let decoded = try? UTF7.decode(text) {
                #expect(decoded.unicodeScalars.allSatisfy { !(0xD800...0xDFFF).contains($0.value) })
            }
            _ = UTF7.decodeLeniently(text)
        }
    }

    private func randomCharacter(_ pool: [Character], _ generator: inout SystemRandomNumberGenerator) -> Character {
        if Int.random(in: 0..<4, using: &generator) == 0 {
            let value = UInt32.random(in: 0...0x10FFFF, using: &generator)
            if let scalar = Unicode.Scalar(value) { return Character(scalar) }
        }
        return pool.randomElement(using: &generator)!
    }
}
