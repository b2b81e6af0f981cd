import Foundation
import Testing
import WOPIStorage

@Suite("ItemID")
struct ItemIDTests {
    @Test func randomIDsAreURLSafeAndDistinct() {
        let ids = (0..<200).map { _ in ItemID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.rawValue.count == 26)
            #expect(id.rawValue.allSatisfy { ItemID.allowedCharacters.contains($0) })
            #expect(ItemID(rawValue: id.rawValue) == id)
        }
    }

    @Test(arguments: ["", "a/b", "a b", "é", "a.b", String(repeating: "a", count: 129)])
    func rejectsUnsafeText(_ text: String) {
        #expect(ItemID(rawValue: text) == nil)
    }

    @Test func acceptsTheLongestAllowedID() {
        #expect(ItemID(rawValue: String(repeating: "A-_9", count: 32)) != nil)
    }

    @Test func codesAsAPlainStringAndRejectsBadInput() throws {
        let id = try #require(ItemID(rawValue: "abc-DEF_123"))
        let json = try JSONEncoder().encode([id])
        #expect(String(decoding: json, as: UTF8.self) == #"["abc-DEF_123"]"#)
        #expect(try JSONDecoder().decode([ItemID].self, from: json) == [id])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ItemID].self, from: Data(#"["../etc"]"#.utf8))
        }
    }
}
