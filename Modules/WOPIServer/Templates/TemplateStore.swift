import Foundation
import NIOCore
public import WOPIStorage

/// A template a new document can be made from (a letterhead, an invoice).
public struct Template: Sendable, Hashable, Codable {
    /// The template's ID, unique in its store (URL-safe: it is part of no URL, but of logs and forms).
    public var id: String
    /// Its name as users see it, such as `Letter.dotx`.
    public var name: String
    /// The extension of a document made from it, without the dot: `docx` for a `.dotx`, `odt` for an `.ott`.
    public var documentExtension: String

    /// Creates a template description.
    public init(id: String, name: String, documentExtension: String) {
        self.id = id
        self.name = name
        self.documentExtension = documentExtension
    }
}

/// Where a host keeps its templates, and which new documents were made from which template.
///
/// A document made from a template starts empty; CheckFileInfo then names the template in `TemplateSource`, the
/// editor (Collabora Online, ONLYOFFICE) loads it from there, and its first save is a normal PutFile, after which
/// the host forgets the reference. Open for third-party conformances; ``InMemoryTemplateStore`` is the reference.
public protocol TemplateStore: Sendable {
    /// Every template, in the order a page lists them.
    func templates() async throws -> [Template]
    /// The content of template `id`, `nil` for an unknown ID.
    func content(of id: String) async throws -> ByteStream?
    /// The template the empty document `file` was made from, `nil` when it was not (or was saved since).
    func template(of file: ItemID) async throws -> String?
    /// Records (`template` set) or forgets (`nil`) what `file` was made from.
    func setTemplate(_ template: String?, of file: ItemID) async throws
}

/// Templates and references in process memory: for one host process, tests, and as the reference.
public actor InMemoryTemplateStore: TemplateStore {
    private let entries: [(template: Template, content: [UInt8])]
    private var references: [ItemID: String] = [:]

    /// A store of `templates`, each with its content.
    public init(_ templates: [(Template, [UInt8])]) {
        entries = templates.map { (template: $0.0, content: $0.1) }
    }

    public func templates() -> [Template] { entries.map(\.template) }

    public func content(of id: String) -> ByteStream? {
        entries.first { $0.template.id == id }.map { ByteStream(chunks: [ByteBuffer(bytes: $0.content)]) }
    }

    public func template(of file: ItemID) -> String? { references[file] }

    public func setTemplate(_ template: String?, of file: ItemID) {
        references[file] = template
    }
}
