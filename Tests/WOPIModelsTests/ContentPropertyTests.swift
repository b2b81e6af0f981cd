import Foundation
import Testing
import WOPIModels

/// A content property's retention under either name (Docs/cspp-plus.md's decisions).
@Suite struct ContentPropertyTests {
    private func decode(_ json: String) throws -> ContentProperty {
        try JSONDecoder().decode(ContentProperty.self, from: Data(json.utf8))
    }

    @Test func theRetentionIsReadUnderTheValidatorsAndTheDocumentedName() throws {
        let sent = try decode(#"{"Name": "a", "Value": "1", "Retention": "KeepOnContentChange"}"#)
        #expect(sent.retention == .keepOnContentChange)
        let documented = try decode(#"{"Name": "a", "Value": "1", "ContentPropertyRetention": "KeepOnContentChange"}"#)
        #expect(documented.retention == .keepOnContentChange)
        #expect(try decode(#"{"Name": "a", "Value": "1"}"#).retention == .deleteOnContentChange)
    }

    @Test func anUnknownRetentionIsRefused() {
        #expect(throws: DecodingError.self) { try decode(#"{"Name": "a", "Value": "1", "Retention": "Forever"}"#) }
    }

    @Test func itIsWrittenUnderRetention() throws {
        let json = try JSONEncoder().encode(ContentProperty(name: "a", value: "1", retention: .keepOnContentChange))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        #expect(object == ["Name": "a", "Value": "1", "Retention": "KeepOnContentChange"])
    }
}
