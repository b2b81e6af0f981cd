import Foundation
import NIOCore
import WOPIChunking
import WOPIModels
import WOPIStorage

/// The chunk lists the host worked out itself, for backends that are not ``ChunkedContentStorage``: keyed by file
/// and version (a version's content never changes), the most recently used ``capacity`` kept.
actor ContentChunkListCache {
    private struct Key: Hashable {
        var file: ItemID
        var version: String
    }

    /// How many lists are kept.
    let capacity: Int
    private var lists: [Key: ContentChunkList] = [:]
    private var order: [Key] = []

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    func list(of file: ItemID, version: String) -> ContentChunkList? {
        let key = Key(file: file, version: version)
        guard let list = lists[key] else { return nil }
        order.removeAll { $0 == key }
        order.append(key)
        return list
    }

    func remember(_ list: ContentChunkList, of file: ItemID) {
        let key = Key(file: file, version: list.version)
        if lists.updateValue(list, forKey: key) == nil {
            order.append(key)
            while order.count > capacity { lists[order.removeFirst()] = nil }
        }
    }
}

extension ContentChunkList {
    /// The scheme the list was cut by.
    var scheme: ChunkingScheme { isZip ? .zip : .fullFile }

    /// The list as a stream signature.
    func signature(streamID: String) -> StreamSignature {
        StreamSignature(
            streamID: streamID, chunkingScheme: scheme,
            chunkSignatures: chunks.map { ChunkSignature(chunkID: $0.id.base64, length: UInt64($0.length)) })
    }
}

extension WOPIHost {
    /// The chunks of the current MainContent of `file`: the backend's own list when it keeps content as chunks
    /// (``ChunkedContentStorage``), else worked out by reading the content once, and cached by version.
    func mainContentChunks(of file: ItemID) async throws -> ContentChunkList {
        if let chunked = storage as? any ChunkedContentStorage {
            return try await chunked.contentChunks(of: file)
        }
        if case .file(let metadata) = try await storage.item(file),
            let known = await chunkListCache.list(of: file, version: metadata.version)
        {
            return known
        }
        let content = try await storage.readFile(file)
        let list = try await ContentChunkList(cutting: content.body, version: content.metadata.version)
        await chunkListCache.remember(list, of: file)
        return list
    }
}
