public import Foundation
import NIOCore
public import NIOPosix
public import WOPIStorage

/// Templates as the files of a directory, and the references of documents made from them in a JSON file beside the
/// deployment's data, so a document made from a template still opens with it after a restart.
///
/// Each regular file of ``directory`` (hidden files aside) is a template: its file name is its ID and its name, and
/// the document extension follows the template's (`.dotx` → `docx`, `.ott` → `odt`, …; any other extension is
/// kept). The directory is listed on each call, so a template dropped in is offered at once. References are a
/// `SharedJSONFile` (exclusive lock, atomic durable writes), safe for several processes sharing the data directory.
/// The file I/O runs on a `NIOThreadPool`, never on Swift's cooperative threads.
public struct DirectoryTemplateStore: TemplateStore {
    /// The folder of the template files (a missing folder holds no templates).
    public let directory: URL
    private let references: SharedJSONFile<[String: String]>
    private let threadPool: NIOThreadPool

    /// Templates in `directory`, references in the JSON file at `references` (created on the first document).
    ///
    /// - Parameter threadPool: the pool that runs the blocking file I/O.
    public init(directory: URL, references: URL, threadPool: NIOThreadPool = .singleton) {
        self.directory = directory
        self.references = SharedJSONFile(url: references, threadPool: threadPool, initial: { [:] })
        self.threadPool = threadPool
    }

    /// The document extension of a template file's extension: the template formats of Office and OpenDocument map
    /// to their document formats, any other extension is its own.
    public static func documentExtension(ofTemplateExtension ext: String) -> String {
        let documents = [
            "dotx": "docx", "dotm": "docm", "dot": "doc", "xltx": "xlsx", "xltm": "xlsm", "xlt": "xls",
            "potx": "pptx", "potm": "pptm", "pot": "ppt", "ott": "odt", "ots": "ods", "otp": "odp", "otg": "odg",
        ]
        return documents[ext.lowercased()] ?? ext.lowercased()
    }

    public func templates() async throws -> [Template] {
        try await threadPool.runIfActive { [directory] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().compactMap { name -> Template? in
                let url = directory.appendingPathComponent(name)
                guard !name.hasPrefix("."), !url.pathExtension.isEmpty,
                    (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
                else { return nil }
                return Template(
                    id: name, name: name,
                    documentExtension: Self.documentExtension(ofTemplateExtension: url.pathExtension))
            }
        }
    }

    public func content(of id: String) async throws -> ByteStream? {
        guard try await templates().contains(where: { $0.id == id }) else { return nil }
        let url = directory.appendingPathComponent(id)
        let length = try await threadPool.runIfActive {
            try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
        }
        return ByteStream(knownLength: length?.int64Value) { [threadPool] in
            let reader = ChunkReader(url: url, threadPool: threadPool)
            return { try await reader.next() }
        }
    }

    public func template(of file: ItemID) async throws -> String? {
        try await references.read()[file.rawValue]
    }

    public func setTemplate(_ template: String?, of file: ItemID) async throws {
        try await references.update { $0[file.rawValue] = template }
    }
}

/// Reads a template file chunk by chunk on the thread pool: opened at the first chunk, closed at its end.
private final class ChunkReader: @unchecked Sendable {
    // Unchecked: one reader serves one iteration of a ByteStream, whose `next()` calls never overlap.
    private let url: URL
    private let threadPool: NIOThreadPool
    private var handle: FileHandle?
    private var finished = false

    init(url: URL, threadPool: NIOThreadPool) {
        self.url = url
        self.threadPool = threadPool
    }

    deinit { try? handle?.close() }

    func next() async throws -> ByteBuffer? {
        if finished { return nil }
        let data = try await threadPool.runIfActive { [self] in
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            return try handle?.read(upToCount: ByteStream.preferredChunkSize) ?? Data()
        }
        if data.isEmpty {
            finished = true
            try? handle?.close()
            handle = nil
            return nil
        }
        return ByteBuffer(bytes: data)
    }
}
