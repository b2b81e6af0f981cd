import Foundation
import HTTPTypes
import NIOCore
import Testing
import WOPIHTTPEdge
import WOPIModels
import WOPITestSupport

/// `DirectJSONWriter` writes CheckFileInfo (and every other WOPI body) byte for byte as `WOPIJSON.encoder` does.
@Suite struct DirectJSONWriterTests {
    /// Text that exercises every escape: control characters, quotes, backslashes, slashes, non-ASCII, emoji.
    static let awkwardText =
        String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        + "\"\\/ é\u{7F}\u{2028}😀 https://host/wopi?a=1&b=<2>"

    /// A JSON value of each shape a CheckFileInfo property can take, tried in turn until one decodes.
    nonisolated(unsafe) static let candidates: [Any] = [
        awkwardText, true, Int64.max, [awkwardText, "b", ""], ["Z": awkwardText, "a": "", "é": "x", "x10": "1"],
    ]

    nonisolated(unsafe) static let required: [String: Any] = [
        "BaseFileName": "Budget.xlsx", "OwnerId": "u1", "Size": 48_213, "Version": "v42",
    ]

    /// The JSON value a property takes, found by decoding: every property of the model gets one.
    nonisolated(unsafe) static let valueByKey: [String: Any] = {
        var values: [String: Any] = [:]
        for key in CheckFileInfo.CodingKeys.allCases {
            for candidate in candidates {
                var object = required
                object[key.stringValue] = candidate
                if (try? decode(object)) != nil {
                    values[key.stringValue] = candidate
                    break
                }
            }
        }
        return values
    }()

    static func decode(_ object: [String: Any]) throws -> CheckFileInfo {
        try WOPIJSON.decoder.decode(CheckFileInfo.self, from: JSONSerialization.data(withJSONObject: object))
    }

    static func expectSameBytes<Value: Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let expected = Array(try WOPIJSON.encoder.encode(value))
        let written = try DirectJSONWriter.bytes(of: value)
        #expect(Array(buffer: try DirectJSONWriter.buffer(of: value)) == written, sourceLocation: sourceLocation)
        #expect(
            String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
            sourceLocation: sourceLocation)
        #expect(written == expected, sourceLocation: sourceLocation)
    }

    @Test func everyPropertyHasAValue() {
        #expect(Self.valueByKey.count == CheckFileInfo.CodingKeys.allCases.count)
    }

    @Test func eachPropertyAloneIsWrittenAsJSONEncoderWritesIt() throws {
        for (key, value) in Self.valueByKey {
            var object = Self.required
            object[key] = value
            try Self.expectSameBytes(try Self.decode(object))
        }
    }

    @Test func everyPropertyAtOnce() throws {
        try Self.expectSameBytes(try Self.decode(Self.required.merging(Self.valueByKey) { $1 }))
    }

    @Test func randomCombinationsOfProperties() throws {
        var generator = SeededGenerator(seed: 28)
        let keys = Self.valueByKey.keys.sorted()
        for _ in 0..<300 {
            var object = Self.required
            for key in keys where Bool.random(using: &generator) { object[key] = Self.valueByKey[key] }
            object["Size"] = Int64.random(in: Int64.min...Int64.max, using: &generator)
            try Self.expectSameBytes(try Self.decode(object))
        }
    }

    @Test func integersAtTheirLimits() throws {
        for size in [Int64.min, -1, 0, 9, 10, 99, 100, Int64.max] {
            try Self.expectSameBytes(CheckFileInfo(baseFileName: "a", ownerID: "o", size: size, version: "v"))
        }
        try Self.expectSameBytes([UInt64.max: UInt8.max])
        try Self.expectSameBytes([Int8.min, Int8.max])
    }

    @Test func nestedObjectsArraysAndNulls() throws {
        try Self.expectSameBytes(["b": ["y": [1, 2], "x": []], "a": [:]] as [String: [String: [Int]]])
        try Self.expectSameBytes([nil, "x", nil] as [String?])
        try Self.expectSameBytes([Self.awkwardText: Self.awkwardText])
    }

    @Test func whatItLeavesToJSONEncoderThrows() {
        #expect(throws: DirectJSONWriter.Unsupported.self) { try DirectJSONWriter.bytes(of: ["t": Float(1.5)]) }
        #expect(throws: DirectJSONWriter.Unsupported.self) { try DirectJSONWriter.bytes(of: ["t": Double.nan]) }
        #expect(throws: DirectJSONWriter.Unsupported.self) { try DirectJSONWriter.bytes(of: [-Double.infinity]) }
        #expect(throws: DirectJSONWriter.Unsupported.self) { try DirectJSONWriter.bytes(of: [Date()]) }
        #expect(throws: DirectJSONWriter.Unsupported.self) { try DirectJSONWriter.bytes(of: Date()) }
        #expect(throws: DirectJSONWriter.Unsupported.self) {
            try DirectJSONWriter.bytes(of: URL(string: "https://host/x")!)
        }
        #expect(throws: DirectJSONWriter.Unsupported.self) {
            try DirectJSONWriter.bytes(of: ["u": URL(string: "https://host/x")!])
        }
    }

    @Test func doublesAreWrittenAsJSONEncoderWritesThem() throws {
        var generator = SeededGenerator(seed: 7)
        var values: [Double] = [
            0, -0.0, 1, -1, 0.1, 1e-7, 1e15 + 0.5, 1e16, 1e20, 1e21, .ulpOfOne, .leastNonzeroMagnitude,
        ]
        values += [.greatestFiniteMagnitude, 1_790_000_000.25]
        for _ in 0..<2_000 {
            values.append(Double.random(in: -4e9...4e9, using: &generator))
            let bits = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            if bits.isFinite { values.append(bits) }
        }
        try Self.expectSameBytes(values)
        try Self.expectSameBytes(["a": 2.5, "b": -3.0])
    }

    @Test func datesAsSecondsSince1970AreWrittenAsJSONEncoderWritesThem() throws {
        let encoder = WOPIJSON.encoder
        encoder.dateEncodingStrategy = .secondsSince1970
        var generator = SeededGenerator(seed: 70)
        for _ in 0..<500 {
            let dates = ["at": Date(timeIntervalSince1970: Double.random(in: -1e9...4e9, using: &generator))]
            #expect(try DirectJSONWriter.bytes(of: dates, datesSince1970: true) == Array(try encoder.encode(dates)))
        }
        #expect(throws: DirectJSONWriter.Unsupported.self) { try DirectJSONWriter.bytes(of: ["at": Date()]) }
    }

    @Test func aListingOfManyChildren() throws {
        var generator = SeededGenerator(seed: 1_000)
        let files = (0..<1_000).map { index in
            ChildFile(
                name: "File \(index) \(Self.awkwardText.prefix(Int.random(in: 0...40, using: &generator))).docx",
                url:
                    "https://host/wopi/files/\(index)?access_token=\(UInt64.random(in: 0...UInt64.max, using: &generator))",
                size: Int64.random(in: 0...Int64.max, using: &generator), version: "v\(index)",
                lastModifiedTime: Bool.random(using: &generator) ? "2026-11-27T08:00:00.0000000Z" : nil)
        }
        let containers = (0..<20).map { NamedURL(name: "Folder \($0)", url: "https://host/wopi/containers/\($0)") }
        try Self.expectSameBytes(EnumerateChildrenResponse(childContainers: containers, childFiles: files))
        try Self.expectSameBytes(EnumerateChildrenResponse(childContainers: [], childFiles: []))
    }

    /// EnumerateChildren's entries, written member by member after what a piece already holds.
    @Test func listingEntriesAreWrittenAsJSONEncoderWritesThem() throws {
        var generator = SeededGenerator(seed: 2_028)
        let prefix = ByteBuffer(string: #"{"ChildFiles":["#)
        for index in 0..<300 {
            let text = String(
                Self.awkwardText.shuffled(using: &generator).prefix(Int.random(in: 0...40, using: &generator)))
            let file = ChildFile(
                name: "File \(index) \(text).docx", url: "https://host/wopi/files/\(index)?access_token=\(text)",
                size: index.isMultiple(of: 7) ? Int64.min : Int64.random(in: 0...Int64.max, using: &generator),
                version: text, lastModifiedTime: Bool.random(using: &generator) ? "2026-11-27T08:00:00.0000000Z" : nil)
            let folder = NamedURL(name: text, url: "https://host/wopi/containers/\(index)")
            #expect(
                Array(buffer: file.json(after: prefix)) == Array(buffer: prefix)
                    + Array(try WOPIJSON.encoder.encode(file)))
            #expect(
                Array(buffer: folder.json(after: ByteBuffer())) == Array(try WOPIJSON.encoder.encode(folder)))
        }
    }

    /// A key written twice keeps its last value, wherever the two writes stand.
    @Test func aKeyWrittenTwiceKeepsItsLastValue() throws {
        try Self.expectSameBytes(RepeatedKeys())
    }

    @Test func aResponseOfWhatTheWriterLeavesOutIsJSONEncoders() throws {
        let value = ["t": 1.5, "u": -0.1]
        let response = try WOPIResponse.json(value)
        guard case .buffer(let body) = response.body else {
            Issue.record("a JSON response has a buffer body")
            return
        }
        #expect(Array(buffer: body) == Array(try WOPIJSON.encoder.encode(value)))
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
    }
}

/// Writes `B`, then `A`, then `B` again into one object.
private struct RepeatedKeys: Encodable {
    enum Keys: String, CodingKey { case a = "A", b = "B" }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("first", forKey: .b)
        try container.encode(1, forKey: .a)
        try container.encode("second", forKey: .b)
    }
}
