import Foundation
public import WOPIChunking

/// What a client last knew of a file's content: its chunks in order and the sequence number they belong to. Kept
/// in the ``ChunkCache`` per file after each transfer, so the next download lists those chunks as known and the
/// next upload tells the host which version it replaces.
public struct ChunkManifest: Codable, Sendable, Hashable {
    /// One chunk: ID and length.
    public struct Chunk: Codable, Sendable, Hashable {
        /// The chunk's ID, base64.
        public var id: String
        /// Its length in bytes.
        public var length: Int64

        /// A chunk entry.
        public init(id: String, length: Int64) {
            self.id = id
            self.length = length
        }
    }

    /// The host's sequence number for this content (`nil` when the host sent none).
    public var sequenceNumber: Int64?
    /// `true` for the `Zip` scheme.
    public var isZip: Bool
    /// The chunks in file order.
    public var chunks: [Chunk]

    /// A manifest.
    public init(sequenceNumber: Int64?, isZip: Bool, chunks: [Chunk]) {
        self.sequenceNumber = sequenceNumber
        self.isZip = isZip
        self.chunks = chunks
    }

    /// The chunk IDs, in order (entries that are not valid IDs are left out).
    public var chunkIDs: [ChunkID] { chunks.compactMap { ChunkID(base64: $0.id) } }
}

extension ChunkCache {
    /// The manifest kept for the file `key` (its WOPISrc), or `nil`.
    public func manifest(for key: String) -> ChunkManifest? {
        guard let data = FileManager.default.contents(atPath: manifestPath(for: key)) else { return nil }
        return try? JSONDecoder().decode(ChunkManifest.self, from: data)
    }

    /// Keeps `manifest` for the file `key`, replacing the previous one atomically.
    public func saveManifest(_ manifest: ChunkManifest, for key: String) throws {
        let path = manifestPath(for: key)
        let temporary = directory.appendingPathComponent("tmp/\(UUID().uuidString)").path
        do {
            let data = try JSONEncoder().encode(manifest)
            guard
                FileManager.default.createFile(
                    atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
            else { throw ChunkCacheError("Cannot write a file manifest in the chunk cache.") }
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            guard rename(temporary, path) == 0 else { throw ChunkCacheError("Cannot store a file manifest.") }
        } catch let error as ChunkCacheError {
            unlink(temporary)
            throw error
        } catch {
            unlink(temporary)
            throw ChunkCacheError("Cannot store a file manifest: \(error).")
        }
    }

    /// Forgets the manifest of `key`.
    public func removeManifest(for key: String) {
        unlink(manifestPath(for: key))
    }

    /// `files/<SpookyHash of the key, URL-safe base64>.json`.
    private func manifestPath(for key: String) -> String {
        let name = Self.fileName(SpookyHash.hash(Array(key.utf8)))
        return directory.appendingPathComponent("files/\(name).json").path
    }
}
