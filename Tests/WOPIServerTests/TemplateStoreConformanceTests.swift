import Foundation
import Testing
import WOPIServer
import WOPIServerConformance
import WOPIStorageConformance
import WOPITestSupport

/// Each template store passes the kit; the directory store, which keeps its references in a file, the durable cases
/// too.
@Suite("TemplateStore conformance")
struct TemplateStoreConformanceTests {
    @Test("the in-memory store passes the kit", arguments: TemplateStoreConformance.cases)
    func memory(_ kit: ConformanceCase<any TemplateStore>) async throws {
        let store = InMemoryTemplateStore(TemplateStoreConformance.templates)
        try await kit.run { store }
    }

    @Test(
        "the directory store passes the kit and the durable cases",
        arguments: TemplateStoreConformance.cases + TemplateStoreConformance.durableCases)
    func directory(_ kit: ConformanceCase<any TemplateStore>) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try TemplateStoreConformance.writeTemplates(to: folder.appending("templates"))
        // Not templates: a hidden file, a file without an extension, a folder.
        try Data("x".utf8).write(to: folder.appending("templates/.DS_Store"))
        try Data("x".utf8).write(to: folder.appending("templates/README"))
        try FileManager.default.createDirectory(
            at: folder.appending("templates/old.dotx"), withIntermediateDirectories: true)
        try await kit.run {
            DirectoryTemplateStore(
                directory: folder.appending("templates"), references: folder.appending("template-references.json"))
        }
    }

    @Test("a template's extension gives the document's: Office and OpenDocument templates, others kept")
    func documentExtensions() {
        let pairs = [
            ("dotx", "docx"), ("XLTX", "xlsx"), ("potx", "pptx"), ("ott", "odt"), ("ots", "ods"), ("txt", "txt"),
        ]
        for (template, document) in pairs {
            #expect(DirectoryTemplateStore.documentExtension(ofTemplateExtension: template) == document)
        }
    }
}
