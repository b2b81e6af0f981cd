import Testing
import WOPIModels

@Suite struct FileNameRulesTests {
    @Test func forbiddenCharactersAreTheMobileList() {
        #expect(FileNameRules.forbiddenCharacters.count == 17)
        for character in "\\/:*?\"<>|#{}^[]`%" {
            #expect(FileNameRules.forbiddenCharacters.contains(character))
        }
        #expect(FileNameRules.defaultMaximumBaseNameLength == 250)
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
        let result = FileNameRules.sanitized(name)
        #expect(result == expected)
        #expect(FileNameRules.problem(with: result) == nil, "sanitized name \(result) still has a problem")
    }

    @Test func sanitizeTruncatesTheBaseKeepingTheExtension() {
        let long = String(repeating: "a", count: 600) + ".docx"
        let result = FileNameRules.sanitized(long)
        #expect(result == String(repeating: "a", count: 250) + ".docx")
        let emoji = String(repeating: "😀", count: 10) + ".txt"  // 2 UTF-16 units each
        #expect(FileNameRules.sanitized(emoji, maximumBaseNameLength: 5) == "😀😀.txt")
        #expect(FileNameRules.sanitized("x.docx", defaultBaseName: "New") == "x.docx")
        #expect(FileNameRules.sanitized("***.docx", defaultBaseName: "New") == "---.docx")
        #expect(FileNameRules.sanitized(".docx", defaultBaseName: "New") == "New.docx")
    }

    @Test func reportsProblemsInSpecificMode() {
        #expect(FileNameRules.problem(with: "Budget.xlsx") == nil)
        #expect(FileNameRules.problem(with: "") != nil)
        #expect(FileNameRules.problem(with: ".docx") != nil)
        #expect(FileNameRules.problem(with: " a.docx") != nil)
        #expect(FileNameRules.problem(with: "a|b.docx")?.contains("'|'") == true)
        #expect(FileNameRules.problem(with: "a\u{1}b.docx")?.contains("control character") == true)
        let base250 = String(repeating: "b", count: 250)
        #expect(FileNameRules.problem(with: base250 + ".docx") == nil)
        #expect(FileNameRules.problem(with: base250 + "b.docx")?.contains("251") == true)
        #expect(FileNameRules.problem(with: "abcdef.docx", maximumBaseNameLength: 5) != nil)
        #expect(FileNameRules.problem(with: "abcde.docx", maximumBaseNameLength: 5) == nil)
        #expect(FileNameRules.problem(with: base250 + ".docx", maximumBaseNameLength: 0) == nil)
    }

    @Test func uniqueNamesKeepTheExtension() {
        var taken: Set<String> = ["a.docx", "a (1).docx", "a (2).docx", "b", "c (7).txt"]
        #expect(FileNameRules.uniqueName(for: "free.docx") { taken.contains($0) } == "free.docx")
        #expect(FileNameRules.uniqueName(for: "a.docx") { taken.contains($0) } == "a (3).docx")
        #expect(FileNameRules.uniqueName(for: "b") { taken.contains($0) } == "b (1)")
        #expect(FileNameRules.uniqueName(for: "c (7).txt") { taken.contains($0) } == "c (8).txt")
        taken.insert("a (3).docx")
        #expect(FileNameRules.uniqueName(for: "a (1).docx") { taken.contains($0) } == "a (4).docx")
    }

    @Test func uniqueNameStaysWithinTheLengthLimit() {
        let base = String(repeating: "x", count: 250)
        let result = FileNameRules.uniqueName(for: base + ".docx") { $0 == base + ".docx" }
        #expect(result.hasSuffix(" (1).docx"))
        #expect(FileNameRules.problem(with: result) == nil)
    }

    @Test func uniqueNameGivesUpCountingEventually() {
        var calls = 0
        let result = FileNameRules.uniqueName(for: "n.txt") { _ in
            calls += 1
            return true
        }
        #expect(calls == 10_001)
        #expect(result.hasPrefix("n (") && result.hasSuffix(").txt"))
    }

    @Test func suggestedNames() {
        #expect(FileNameRules.suggestedName(from: ".pdf", sourceName: "Budget.xlsx") == "Budget.pdf")
        #expect(FileNameRules.suggestedName(from: ".pdf", sourceName: "archive.tar.gz") == "archive.tar.pdf")
        #expect(FileNameRules.suggestedName(from: ".docx", sourceName: nil) == "Untitled.docx")
        #expect(
            FileNameRules.suggestedName(from: ".docx", sourceName: nil, defaultBaseName: "New Document")
                == "New Document.docx")
        #expect(FileNameRules.suggestedName(from: "Report?.docx", sourceName: "x.docx") == "Report-.docx")
        #expect(FileNameRules.suggestedName(from: "madeup_name.wopitestx", sourceName: nil) == "madeup_name.wopitestx")
        #expect(FileNameRules.suggestedName(from: ".pdf", sourceName: "a|b.docx") == "a-b.pdf")
    }

    @Test func randomNamesSanitizeToValidNames() {
        let pool = Array("ab Z9.-_ \\/:*?\"<>|#{}^[]`%\t\u{7F}é日😀")
        for _ in 0..<2000 {
            let name = String((0..<Int.random(in: 0...30)).map { _ in pool.randomElement()! })
            let result = FileNameRules.sanitized(name, maximumBaseNameLength: 10)
            #expect(!result.isEmpty)
            #expect(FileNameRules.problem(with: result, maximumBaseNameLength: 10) == nil, "\(name) -> \(result)")
        }
    }
}
