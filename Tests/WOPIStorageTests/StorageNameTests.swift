import Testing
import WOPIStorage

@Suite("StorageName")
struct StorageNameTests {
    @Test(arguments: [
        "a.txt", "Résumé 2024.docx", "日本.docx", "📝 notes.docx", "a  b", String(repeating: "a", count: 255),
        String(repeating: "é", count: 127),
    ])
    func acceptsValidNames(_ name: String) throws {
        #expect(try StorageName.validate(name) == name)
        #expect(StorageName.problem(with: name) == nil)
    }

    @Test(arguments: [
        "", ".", "..", "a/b", "../x", "a\\b", "tab\there", "nul\u{0}", "del\u{7F}", " lead", "trail ", "\u{A0}nbsp",
        String(repeating: "a", count: 256), String(repeating: "é", count: 128),
    ])
    func rejectsInvalidNames(_ name: String) {
        let error = #expect(throws: StorageError.self) { try StorageName.validate(name) }
        #expect(error?.code == .invalidName)
        #expect(StorageName.problem(with: name) != nil)
    }
}
