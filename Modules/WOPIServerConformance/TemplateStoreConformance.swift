public import Foundation
import NIOCore
public import WOPIServer
import WOPIStorage
public import WOPIStorageConformance

/// The conformance kit for ``WOPIServer/TemplateStore``: the templates listed field for field, their content byte
/// for byte (one larger than a stream chunk), and references recorded, replaced and forgotten; ``durableCases`` add
/// what a store kept on disk or in a database promises: a second opener (a restarted host, another process) sees
/// the references, and concurrent references from two openers all land.
///
/// The store under test must hold exactly ``templates`` (``writeTemplates(to:)`` writes them as files, named by
/// their IDs). References use file IDs that start with a random tag, so the cases also run against a store that
/// holds other references.
public enum TemplateStoreConformance {
    /// The templates each store under test holds, with their content: a letter, and a spreadsheet template of
    /// 1 MiB + 3 bytes (patterned, so a lost or repeated chunk shows).
    public static let templates: [(Template, [UInt8])] = [
        (
            Template(id: "Budget.ots", name: "Budget.ots", documentExtension: "ods"),
            (0..<(1 << 20) + 3).map { (index: Int) -> UInt8 in UInt8(truncatingIfNeeded: index &* 31 &+ index >> 8) }
        ),
        (Template(id: "Letter.dotx", name: "Letter.dotx", documentExtension: "docx"), Array("LETTERHEAD".utf8)),
    ]

    /// Writes ``templates`` into `directory` (created if needed), one file per template, named by its ID.
    public static func writeTemplates(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (template, content) in templates {
            try Data(content).write(to: directory.appendingPathComponent(template.id))
        }
    }

    /// The cases every template store passes.
    public static var cases: [ConformanceCase<any TemplateStore>] {
        [
            .init("lists exactly the templates it holds, field for field", lists),
            .init("reads each template back byte for byte, and nothing for an unknown ID", contents),
            .init("records, replaces and forgets which template a file was made from", references),
        ]
    }

    /// The cases of a store that keeps references beyond its process (files, a database).
    public static var durableCases: [ConformanceCase<any TemplateStore>] {
        [
            .init("a second opener (a restarted host) sees every reference at once", secondOpener),
            .init("16 concurrent references from two openers all land", concurrentReferences),
        ]
    }

    private static func file(_ tag: String, _ index: Int) -> ItemID { ItemID(rawValue: "\(tag)f\(index)")! }

    private static func tag() -> String { "t" + String(UInt64.random(in: 0...UInt64.max), radix: 36) }

    static func lists(_ open: @escaping ConformanceCase<any TemplateStore>.Opener) async throws {
        let listed = try await open().templates()
        try Check.expectEqual(listed.sorted { $0.id < $1.id }, templates.map(\.0), "templates()")
    }

    static func contents(_ open: @escaping ConformanceCase<any TemplateStore>.Opener) async throws {
        let store = try await open()
        for (template, content) in templates {
            let stream = try Check.require(try await store.content(of: template.id), "content(of: \(template.id))")
            let bytes = Array(try await stream.collect(upTo: content.count + 1).readableBytesView)
            try Check.expect(bytes == content, "content(of: \(template.id)) differs from the template's bytes")
        }
        try Check.expect(try await store.content(of: "no-such-template.dotx") == nil, "an unknown ID has content")
    }

    static func references(_ open: @escaping ConformanceCase<any TemplateStore>.Opener) async throws {
        let store = try await open()
        let tag = tag()
        try Check.expectEqual(try await store.template(of: file(tag, 1)), nil, "a new file's template")
        try await store.setTemplate("Letter.dotx", of: file(tag, 1))
        try await store.setTemplate("Budget.ots", of: file(tag, 2))
        try Check.expectEqual(try await store.template(of: file(tag, 1)), "Letter.dotx", "the first file's template")
        try await store.setTemplate("Budget.ots", of: file(tag, 1))
        try Check.expectEqual(try await store.template(of: file(tag, 1)), "Budget.ots", "the replaced template")
        try await store.setTemplate(nil, of: file(tag, 1))
        try Check.expectEqual(try await store.template(of: file(tag, 1)), nil, "the forgotten template")
        try Check.expectEqual(try await store.template(of: file(tag, 2)), "Budget.ots", "the other file's template")
    }

    static func secondOpener(_ open: @escaping ConformanceCase<any TemplateStore>.Opener) async throws {
        let first = try await open()
        let tag = tag()
        try await first.setTemplate("Letter.dotx", of: file(tag, 1))
        try await first.setTemplate("Budget.ots", of: file(tag, 2))
        let second = try await open()
        try Check.expectEqual(try await second.template(of: file(tag, 1)), "Letter.dotx", "the reopened reference")
        try await second.setTemplate(nil, of: file(tag, 2))
        try Check.expectEqual(try await first.template(of: file(tag, 2)), nil, "the other opener's forgetting")
    }

    static func concurrentReferences(_ open: @escaping ConformanceCase<any TemplateStore>.Opener) async throws {
        let openers = [try await open(), try await open()]
        let tag = tag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask { try await openers[index % 2].setTemplate("Letter.dotx", of: file(tag, index)) }
            }
            try await group.waitForAll()
        }
        for index in 0..<16 {
            try Check.expectEqual(try await openers[0].template(of: file(tag, index)), "Letter.dotx", "file \(index)")
        }
    }
}
