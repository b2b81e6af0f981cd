import Testing
import WOPIModels

@Suite struct FileNameRulesTests {
    let mobile = FileNameRules.officeMobile

    @Test func forbiddenCharactersAreTheMobileList() {
        #expect(mobile.forbiddenCharacters.count == 17)
        for character in "\\/:*?\"<>|#{}^[]`%" {
            #expect(mobile.forbiddenCharacters.contains(character))
        }
        #expect(FileNameRules.defaultMaximumBaseNameLength == 250)
        #expect(!mobile.allowsLeadingDot && mobile.rejectsDeviceNames)
    }

    @Test func changedForbiddenCharactersApplyToPlainASCIINames() {
        var rules = FileNameRules.default
        #expect(rules.problem(with: "a#b.docx") == nil)
        rules.forbiddenCharacters.insert("#")
        #expect(rules.problem(with: "a#b.docx") != nil)
        #expect(rules.sanitized("a#b.docx") == "a-b.docx")
        rules.forbiddenCharacters.remove("?")
        #expect(rules.problem(with: "why?.docx") == nil)
        #expect(rules != FileNameRules.default)
    }

    @Test func theDefaultRefusesOnlyWhatNoFileSystemOrOfficeClientCanHold() {
        let rules = FileNameRules.default
        #expect(rules.forbiddenCharacters == Set("\\/\"*:<>?|"))
        #expect(rules.allowsLeadingDot && rules.rejectsDeviceNames)
        for name in [
            ".gitignore", "Notes #3.docx", "100% [final].xlsx", "{draft}^2.txt", "`quoted`.md", ".~lock.Report.docx#",
            ".Report.docx.tmp", ".docx", "CONSOLE.txt", "nul-ish.txt", "com10.txt",
        ] {
            #expect(rules.problem(with: name) == nil, "\(name)")
            #expect(rules.sanitized(name) == name)
        }
        for name in ["a/b", "a\\b", "a\"b", "a*b", "a:b", "a<b", "a>b", "a?b", "a|b", "a\u{7}b", " a", "a ", ""] {
            #expect(rules.problem(with: name) != nil, "\(name)")
        }
        for device in ["CON", "prn", "Aux.txt", "nul.tar.gz", "COM1", "com9.docx", "LPT1", "lpt9.x"] {
            #expect(rules.problem(with: device)?.contains("device name") == true, "\(device)")
            #expect(mobile.problem(with: device) != nil)
        }
        #expect(rules.sanitized("CON.txt") == "CON_.txt")
        #expect(rules.sanitized("nul") == "nul_")
        #expect(rules.sanitized(" .gitignore ") == ".gitignore")
        #expect(rules.sanitized("a|b #1.docx") == "a-b #1.docx")
        #expect(rules.sanitized("..") == "Untitled")
        #expect(rules.suggestedName(from: ".pdf", sourceName: ".gitignore") == "Untitled.pdf")
        #expect(rules.suggestedName(from: "Notes #3.docx", sourceName: nil) == "Notes #3.docx")
        var relaxed = FileNameRules.default
        relaxed.rejectsDeviceNames = false
        #expect(relaxed.problem(with: "CON.txt") == nil)
    }

    @Test(
        arguments: [
            ("report.docx", "report", "docx"),
            ("archive.tar.gz", "archive.tar", "gz"),
            (".docx", "", "docx"),
            ("README", "README", nil),
            ("notes.", "notes.", nil),
            ("..docx", ".", "docx"),
            ("", "", nil),
        ] as [(String, String, String?)])
    func splitsAtTheLastDot(name: String, base: String, ext: String?) {
        let parts = FileNameRules.split(name)
        #expect(parts.base == base)
        #expect(parts.extension == ext)
        #expect(FileNameRules.join(base: parts.base, extension: parts.extension) == name)
    }

    @Test(arguments: [
        ("Budget.xlsx", "Budget.xlsx"),
        ("a/b:c*d?.docx", "a-b-c-d-.docx"),
        ("Q4 [draft] #1 {x} ^ 100%.docx", "Q4 -draft- -1 -x- - 100-.docx"),
        ("  spaced.docx  ", "spaced.docx"),
        ("...hidden.docx", "hidden.docx"),
        (".docx", "Untitled.docx"),
        ("", "Untitled"),
        ("...", "Untitled"),
        ("tab\there.docx", "tab-here.docx"),
        ("résumé.docx", "résumé.docx"),
    ])
    func sanitizes(name: String, expected: String) {
        let result = mobile.sanitized(name)
        #expect(result == expected)
        #expect(mobile.problem(with: result) == nil, "sanitized name \(result) still has a problem")
    }

    @Test func sanitizeTruncatesTheBaseKeepingTheExtension() {
        let long = String(repeating: "a", count: 600) + ".docx"
        let result = mobile.sanitized(long)
        #expect(result == String(repeating: "a", count: 250) + ".docx")
        let emoji = String(repeating: "😀", count: 10) + ".txt"  // 2 UTF-16 units each
        #expect(
            FileNameRules(forbiddenCharacters: [], allowsLeadingDot: false, maximumBaseNameLength: 5).sanitized(emoji)
                == "😀😀.txt")
        #expect(mobile.sanitized("x.docx", defaultBaseName: "New") == "x.docx")
        #expect(mobile.sanitized("***.docx", defaultBaseName: "New") == "---.docx")
        #expect(mobile.sanitized(".docx", defaultBaseName: "New") == "New.docx")
    }

    @Test func reportsProblemsInSpecificMode() {
        #expect(mobile.problem(with: "Budget.xlsx") == nil)
        #expect(mobile.problem(with: "") != nil)
        #expect(mobile.problem(with: ".docx") != nil)
        #expect(mobile.problem(with: " a.docx") != nil)
        #expect(mobile.problem(with: "a|b.docx")?.contains("'|'") == true)
        #expect(mobile.problem(with: "a\u{1}b.docx")?.contains("control character") == true)
        let base250 = String(repeating: "b", count: 250)
        #expect(mobile.problem(with: base250 + ".docx") == nil)
        #expect(mobile.problem(with: base250 + "b.docx")?.contains("251") == true)
        #expect(
            FileNameRules(forbiddenCharacters: [], allowsLeadingDot: false, maximumBaseNameLength: 5).problem(
                with: "abcdef.docx") != nil)
        #expect(
            FileNameRules(forbiddenCharacters: [], allowsLeadingDot: false, maximumBaseNameLength: 5).problem(
                with: "abcde.docx") == nil)
        #expect(
            FileNameRules(forbiddenCharacters: [], allowsLeadingDot: false, maximumBaseNameLength: 0).problem(
                with: base250 + ".docx") == nil)
    }

    @Test func uniqueNamesKeepTheExtension() {
        var taken: Set<String> = ["a.docx", "a (1).docx", "a (2).docx", "b", "c (7).txt"]
        #expect(mobile.uniqueName(for: "free.docx") { taken.contains($0) } == "free.docx")
        #expect(mobile.uniqueName(for: "a.docx") { taken.contains($0) } == "a (3).docx")
        #expect(mobile.uniqueName(for: "b") { taken.contains($0) } == "b (1)")
        #expect(mobile.uniqueName(for: "c (7).txt") { taken.contains($0) } == "c (8).txt")
        taken.insert("a (3).docx")
        #expect(mobile.uniqueName(for: "a (1).docx") { taken.contains($0) } == "a (4).docx")
    }

    @Test func uniqueNameStaysWithinTheLengthLimit() {
        let base = String(repeating: "x", count: 250)
        let result = mobile.uniqueName(for: base + ".docx") { $0 == base + ".docx" }
        #expect(result.hasSuffix(" (1).docx"))
        #expect(mobile.problem(with: result) == nil)
    }

    @Test func uniqueNameGivesUpCountingEventually() {
        var calls = 0
        let result = mobile.uniqueName(for: "n.txt") { _ in
            calls += 1
            return true
        }
        #expect(calls == 10_001)
        #expect(result.hasPrefix("n (") && result.hasSuffix(").txt"))
    }

    @Test func suggestedNames() {
        #expect(mobile.suggestedName(from: ".pdf", sourceName: "Budget.xlsx") == "Budget.pdf")
        #expect(mobile.suggestedName(from: ".pdf", sourceName: "archive.tar.gz") == "archive.tar.pdf")
        #expect(mobile.suggestedName(from: ".docx", sourceName: nil) == "Untitled.docx")
        #expect(
            mobile.suggestedName(from: ".docx", sourceName: nil, defaultBaseName: "New Document")
                == "New Document.docx")
        #expect(mobile.suggestedName(from: "Report?.docx", sourceName: "x.docx") == "Report-.docx")
        #expect(mobile.suggestedName(from: "madeup_name.wopitestx", sourceName: nil) == "madeup_name.wopitestx")
        #expect(mobile.suggestedName(from: ".pdf", sourceName: "a|b.docx") == "a-b.pdf")
    }

    @Test(arguments: [FileNameRules.officeMobile, FileNameRules.default])
    func randomNamesSanitizeToValidNames(rules: FileNameRules) {
        var rules = rules
        rules.maximumBaseNameLength = 10
        let pool = Array("ab Z9.-_ \\/:*?\"<>|#{}^[]`%\t\u{7F}é日😀").map(String.init) + ["CON", "nul", "Lpt3"]
        for _ in 0..<2000 {
            let name = (0..<Int.random(in: 0...30)).map { _ in pool.randomElement()! }.joined()
            let result = rules.sanitized(name)
            #expect(!result.isEmpty)
            #expect(rules.problem(with: result) == nil, "\(name) -> \(result)")
        }
    }

    /// The byte-wise check of plain ASCII names agrees with the rules as written, character by character, for
    /// every name it accepts: random ASCII names (dots, spaces, device names, forbidden and control characters, long
    /// base names) under both rule sets and a short length limit.
    @Test func thePlainASCIICheckAgreesWithTheCharacterRules() {
        let pieces = [
            "a", "Z", "0", ".", " ", "\t", "-", "_", "#", "%", "[", "{", "^", "`", "|", ":", "*", "\u{7}", "\u{7F}",
            "\r\n", "con", "LPT", "1", "Nul", "aux", "COM", "9", ".docx", "..", "é",
        ]
        var short = FileNameRules.default
        short.maximumBaseNameLength = 6
        var generator = SystemRandomNumberGenerator()
        var accepted = 0
        for _ in 0..<20_000 {
            let name = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            for rules in [FileNameRules.default, mobile, short] {
                let plain = rules.isPlainAcceptableASCII(name)
                if plain { accepted += 1 }
                #expect(!plain || rules.characterProblem(with: name) == nil, "\(name)")
                #expect(rules.problem(with: name) == rules.characterProblem(with: name), "\(name)")
            }
        }
        #expect(accepted > 1_000)
    }
}
