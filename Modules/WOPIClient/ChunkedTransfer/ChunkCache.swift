public import Foundation
public import WOPIChunking

/// A local store of CSPP Plus chunks, content-addressed by ``ChunkID``: what incremental transfer does not fetch
/// again.
///
/// One directory per signed-in place, mode `0700`, each chunk one `0600` file named by its ID. The store is
/// bounded: after a store grows it past ``capacity``, the chunks used longest ago (their file's modification time,
/// touched on every use) are removed until it holds at most 90% of it. Any number of processes may share a
/// directory: a chunk is written to a private temporary file and renamed into place (readers see a whole chunk or
/// none), and eviction runs under an exclusive `flock` on the directory's lock file. A chunk is checked against
/// its ID each time it is opened; one that does not hash to its name (a disk error, a stray write) is removed and
/// reported as absent, so the caller fetches it again.
///
/// Chunks stream in and out through file descriptors: memory does not grow with a chunk's size.
public final class ChunkCache: Sendable {
    /// The directory that holds the chunks.
    public let directory: URL
    /// The most bytes of chunks kept.
    public let capacity: Int64

    /// The default bound: 1 GiB.
    public static let defaultCapacity: Int64 = 1 << 30

    private var chunksPath: String { directory.appendingPathComponent("chunks").path }
    private var temporaryPath: String { directory.appendingPathComponent("tmp").path }
    private var lockPath: String { directory.appendingPathComponent("lock").path }

    /// Opens (creating it `0700` if needed) the cache in `directory`, bounded to `capacity` bytes.
    ///
    /// - Throws: ``ChunkCacheError`` when the directory cannot be created or is not private to this user.
    public init(directory: URL, capacity: Int64 = ChunkCache.defaultCapacity) throws {
        self.directory = directory
        self.capacity = max(capacity, 0)
        for path in [directory.path, chunksPath, temporaryPath] {
            do {
                try FileManager.default.createDirectory(
                    atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
            } catch {
                throw ChunkCacheError("Cannot create the chunk cache directory \(path): \(error). Check its parent.")
            }
        }
    }

    // MARK: - Reading

    /// Whether a chunk file named `id` exists (unchecked: ``open(_:)`` checks it).
    public func contains(_ id: ChunkID) -> Bool {
        access(path(of: id), F_OK) == 0
    }

    /// The chunks of `ids` the cache holds (unchecked), for a request's `AlreadyKnownChunks`.
    public func known(among ids: some Sequence<ChunkID>) -> Set<ChunkID> {
        Set(ids.filter(contains))
    }

    /// A read-only descriptor on the chunk `id` after checking that its bytes hash to `id`, or `nil` when the cache
    /// does not hold it or held a corrupt copy (which is removed). Marks the chunk used. The caller closes it.
    public func open(_ id: ChunkID) -> ChunkFile? {
        let path = path(of: id)
        let descriptor = posixOpen(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let file = ChunkFile(descriptor: descriptor)
        guard let length = try? file.length(), (try? file.hash(length: length)) == id else {
            file.close()
            unlink(path)
            return nil
        }
        futimens(descriptor, nil)
        return file
    }

    // MARK: - Writing

    /// Starts writing a chunk (`0600`, in the cache's temporary folder); ``ChunkWriter/commit(as:)`` checks it and
    /// renames it into place.
    public func writer() throws -> ChunkWriter {
        let path = temporaryPath + "/" + UUID().uuidString
        let descriptor = posixOpen(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ChunkCacheError("Cannot write in the chunk cache (\(String(cString: strerror(errno)))).")
        }
        return ChunkWriter(cache: self, descriptor: descriptor, temporaryPath: path)
    }

    /// Stores the `length` bytes at `offset` of the open file `source` as chunk `id`, unless the cache holds it.
    public func store(_ id: ChunkID, from source: ChunkFile, offset: Int64, length: Int64) throws {
        guard !contains(id) else { return }
        let writer = try writer()
        var position = offset
        var buffer = [UInt8](repeating: 0, count: ChunkFile.bufferSize)
        while position < offset + length {
            let want = Int(min(Int64(buffer.count), offset + length - position))
            let count = buffer.withUnsafeMutableBytes {
                pread(source.descriptor, $0.baseAddress, want, off_t(position))
            }
            guard count > 0 else {
                writer.discard()
                throw ChunkCacheError("Cannot read the chunk's bytes from the source file.")
            }
            try buffer.withUnsafeBytes { raw throws in try writer.write(.init(rebasing: raw[..<count]))
            }
            position += Int64(count)
        }
        try writer.commit(as: id)
    }

    /// Moves a checked temporary file into place as `id`, then keeps the cache within its bound.
    func install(_ temporaryPath: String, as id: ChunkID) throws {
        let final = path(of: id)
        let folder = (final as NSString).deletingLastPathComponent
        if access(folder, F_OK) != 0 { mkdir(folder, 0o700) }
        guard rename(temporaryPath, final) == 0 else {
            unlink(temporaryPath)
            throw ChunkCacheError("Cannot store a chunk in the cache (\(String(cString: strerror(errno)))).")
        }
        evictIfNeeded()
    }

    // MARK: - Bounds

    /// The bytes of chunks held now.
    public func size() -> Int64 {
        entries().reduce(0) { $0 + $1.size }
    }

    /// Removes the chunks used longest ago until the cache holds at most 90% of ``capacity``, under the cache's
    /// exclusive lock (other processes evicting wait; readers and writers do not).
    public func evictIfNeeded() {
        let lock = posixOpen(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return }
        defer { posixClose(lock) }
        guard flock(lock, LOCK_EX) == 0 else { return }
        defer { flock(lock, LOCK_UN) }
        var entries = entries()
        var total = entries.reduce(0) { $0 + $1.size }
        guard total > capacity else { return }
        let target = capacity / 10 * 9
        entries.sort { $0.used < $1.used }
        for entry in entries where total > target {
            if unlink(entry.path) == 0 { total -= entry.size }
        }
    }

    private struct Entry {
        var path: String
        var size: Int64
        var used: Double
    }

    private func entries() -> [Entry] {
        var result: [Entry] = []
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: chunksPath)) ?? []
        for folder in folders {
            let folderPath = chunksPath + "/" + folder
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? [] {
                var info = stat()
                let path = folderPath + "/" + name
                guard stat(path, &info) == 0 else { continue }
                let used = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
                result.append(Entry(path: path, size: Int64(info.st_size), used: used))
            }
        }
        return result
    }

    /// `chunks/<first two characters>/<ID in URL-safe base64>`.
    func path(of id: ChunkID) -> String {
        let name = Self.fileName(id)
        return chunksPath + "/" + name.prefix(2) + "/" + name
    }

    /// An ID as a file name: base64 with `-` and `_` for `+` and `/`.
    static func fileName(_ id: ChunkID) -> String {
        id.base64.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")
    }
}

/// A failure of the local chunk cache; the transfer goes on without it (fetching or sending whole chunks).
public struct ChunkCacheError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// `open(2)` and `close(2)`, named apart from the cache's own methods.
func posixOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}

func posixClose(_ descriptor: Int32) {
    close(descriptor)
}

func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
