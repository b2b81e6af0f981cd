import Dispatch
import Foundation
package import NIOCore
package import NIOPosix
import Synchronization
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Content chunks kept as files in a folder beside the database, for a dialect whose database shares the host's
/// file system (SQLite); PostgreSQL keeps its chunks as pieces in the database.
///
/// The database stays the index: a `chunks` row with `in_file = 1` says that the chunk's bytes are the file
/// `ROOT/<staged_version_id>/<staged_index>`, named, like a chunk's pieces, by the version that wrote it first and
/// the chunk's index there (its ID is known only once its last byte went by). A chunk of at least one piece
/// (``ChunkedStorageConfiguration/chunkSize``, 256 KiB) goes to a file; a shorter one (the many small parts of an
/// Office zip) stays a piece in the database, where a save's small chunks cost one fsync of the log rather than one
/// each.
///
/// **Crash safety.** A chunk file is written, fsynced and its folder fsynced before the transaction that keys the
/// chunk commits, so a `chunks` row never names a missing or partial file, and the version switch that follows
/// commits after every file it lists is on disk. A crash before the key leaves a file no row names; files are
/// removed after the commit that deletes their row, and garbage collection (``sweepAll()``) removes those that
/// no row names once their version is no longer being written.
package final class ChunkFiles: ChunkBodyStore {
    /// The folder, for example `/var/lib/wopi/wopi.sqlite-chunks`.
    package let root: String
    /// Where the blocking file I/O runs.
    package let pool: NIOThreadPool
    /// Where the files moved into ``trash`` are unlinked, one batch after the other.
    private let unlinker = DispatchQueue(label: "WOPIKit.ChunkFiles.unlink", qos: .utility)
    /// What the database says about version `id`: `nil` while it is being written, else the indexes of its chunks
    /// stored as files (none when the version is gone). Read in one snapshot, blocking (it runs on ``pool``).
    private let storedFiles: @Sendable (_ id: Int64) throws -> Set<Int64>?

    /// Files for chunks in `root`; `storedFiles` reads what the database keeps of a version's chunk files.
    package init(
        root: String, pool: NIOThreadPool = .singleton, storedFiles: @escaping @Sendable (Int64) throws -> Set<Int64>?
    ) {
        self.root = root
        self.pool = pool
        self.storedFiles = storedFiles
    }

    func directory(of versionID: Int64) -> String { "\(root)/\(versionID)" }

    package var location: String { root }

    /// A statement's worth (``ChunkedStorageConfiguration/bytesPerStatement``): files on the host are read at once.
    package var readSize: Int64 { ChunkedStorageConfiguration.bytesPerStatement }

    package func writer(for versionID: Int64) -> any ChunkBodyWriter {
        ChunkFileWriter(files: self, versionID: versionID)
    }

    package func removeCommitted(_ rows: [SQLRow]) { removeFiles(of: rows) }

    package func removeUnlisted(of versionID: Int64) async throws -> Int {
        try await pool.runBlocking("remove the chunk files of version \(versionID)") { try self.sweep(versionID) }
    }

    package func removeAllUnlisted() async throws -> Int {
        try await pool.runBlocking("collect chunk files in \(root)") { try self.sweepAll() }
    }

    func path(of key: PieceKey) -> String { "\(root)/\(key.versionID)/\(key.chunkIndex)" }

    // MARK: Reading

    /// The bytes `range` of the chunk file `key`, or `nil` when the file is gone or shorter (its version was
    /// deleted while a stalled reader held no lease).
    package func read(_ key: PieceKey, _ range: Range<Int64>) async throws -> ByteBuffer? {
        let path = path(of: key)
        return try await pool.runBlocking("read chunk file \(path)") {
            let fd = SystemCall.retrying { open(path, O_RDONLY | O_CLOEXEC) }
            guard fd >= 0 else {
                if errno == ENOENT { return nil }
                throw POSIXFailure(errno: errno, "open \(path)")
            }
            defer { close(fd) }
            var buffer = ByteBufferAllocator().buffer(capacity: range.count)
            let complete = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: range.count) { bytes in
                var done = 0
                while done < range.count {
                    let read = SystemCall.retrying {
                        pread(fd, bytes.baseAddress! + done, range.count - done, off_t(range.lowerBound) + off_t(done))
                    }
                    guard read >= 0 else { throw POSIXFailure(errno: errno, "read \(path)") }
                    if read == 0 { break }
                    done += read
                }
                return done
            }
            return complete == range.count ? buffer : nil
        }
    }

    // MARK: Removing

    /// The file a backup locks (`flock -s`, shared) while it copies the database and then this folder: while it
    /// is held, no file a `chunks` row named is removed (removals are left to a later garbage collection), so the
    /// copy holds every file the database copy names (Docs/sqlite-storage.md, "Backing up a live database").
    package var backupLock: String { "\(root)/.backup-lock" }

    /// Where removed chunk files wait to be unlinked (``removeFiles(of:)``). A rename is one directory update,
    /// while unlinking a 1 GiB file takes a third of a second on ext4, which the caller (SQLite's writer, which
    /// holds every other write meanwhile) should not wait for.
    package var trash: String { "\(root)/.trash" }

    /// Removes the files of the chunks whose rows `rows` returned (rows of a statement with
    /// ``SQLStatement/removesChunks``: staging version, staging index, `in_file`); call it after their deletion
    /// committed. Each file is renamed into ``trash`` at once and unlinked later, off the caller's thread. Blocking;
    /// a file already gone is fine, and nothing is removed while a backup runs.
    package func removeFiles(of rows: [SQLRow]) {
        let keys = PieceKey.bodies(in: rows)
        guard !keys.isEmpty else { return }
        let moved = unlessBackingUp {
            let hasTrash = mkdir(trash, 0o700) == 0 || errno == EEXIST
            var moved = 0
            for key in keys {
                let path = path(of: key)
                // Version IDs never repeat, so neither does a name in the trash.
                if hasTrash && rename(path, "\(trash)/\(key.versionID)-\(key.chunkIndex)") == 0 {
                    moved += 1
                } else {
                    // No trash or no rename (a full disk may refuse the folder or its entry): unlink here, which
                    // frees the space at once; a file already gone is fine.
                    _ = unlink(path)
                }
            }
            return moved
        }
        if moved > 0 { unlinker.async { [trash] in _ = try? Self.empty(trash) } }
    }

    /// Unlinks every file in `folder`; returns how many. Blocking.
    @discardableResult
    private static func empty(_ folder: String) throws -> Int {
        try (entries(of: folder) ?? []).reduce(0) { $0 + (unlink("\(folder)/\($1)") == 0 ? 1 : 0) }
    }

    /// Removes the files of version `versionID` that no `chunks` row names, and its folder when none is left,
    /// unless the version is still being written or a backup runs. Blocking. Returns how many files it removed.
    @discardableResult
    package func sweep(_ versionID: Int64) throws -> Int {
        try unlessBackingUp { try sweepUnlocked(versionID) }
    }

    /// Takes the backup lock of the chunk folder `root` (shared; made, with the folder, when missing) and returns
    /// its descriptor for ``unlock(_:)``: while it is held, no chunk file a row named is removed. Blocking.
    package static func lockForBackup(root: String) throws -> Int32 {
        guard mkdir(root, 0o700) == 0 || errno == EEXIST else { throw POSIXFailure(errno: errno, "create \(root)") }
        let path = "\(root)/.backup-lock"
        let fd = SystemCall.retrying { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw POSIXFailure(errno: errno, "open \(path)") }
        guard SystemCall.retrying({ flock(fd, LOCK_SH) }) == 0 else {
            let code = errno
            close(fd)
            throw POSIXFailure(errno: code, "lock \(path)")
        }
        return fd
    }

    /// Releases a lock of ``lockForBackup(root:)``.
    package static func unlock(_ fd: Int32) { close(fd) }

    /// Copies the chunk files of the folder `root` into a new folder `destination`, each fsynced. Blocking.
    package static func copy(root: String, to destination: String) throws {
        guard mkdir(destination, 0o700) == 0 else { throw POSIXFailure(errno: errno, "create \(destination)") }
        for version in try entries(of: root) ?? [] where Int64(version) != nil {
            let target = "\(destination)/\(version)"
            guard mkdir(target, 0o700) == 0 else { throw POSIXFailure(errno: errno, "create \(target)") }
            for chunk in try entries(of: "\(root)/\(version)") ?? [] where Int64(chunk) != nil {
                try copyFile("\(root)/\(version)/\(chunk)", to: "\(target)/\(chunk)")
            }
        }
    }

    private static func copyFile(_ source: String, to target: String) throws {
        let input = SystemCall.retrying { open(source, O_RDONLY | O_CLOEXEC) }
        // Removed meanwhile: no row named it when the lock was taken.
        guard input >= 0 else {
            if errno == ENOENT { return }
            throw POSIXFailure(errno: errno, "open \(source)")
        }
        defer { close(input) }
        let output = SystemCall.retrying { open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard output >= 0 else { throw POSIXFailure(errno: errno, "create \(target)") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                SystemCall.retrying { pread(input, bytes.baseAddress, bytes.count, offset) }
            }
            guard count >= 0 else { throw POSIXFailure(errno: errno, "read \(source)") }
            if count == 0 { break }
            offset += off_t(count)
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { bytes in
                    SystemCall.retrying { write(output, bytes.baseAddress! + written, count - written) }
                }
                guard step > 0 else { throw POSIXFailure(errno: errno, "write \(target)") }
                written += step
            }
        }
        guard SystemCall.retrying({ fsync(output) }) == 0 else { throw POSIXFailure(errno: errno, "fsync \(target)") }
    }

    /// Runs `remove` (which removes files) unless a backup holds ``backupLock``, holding the lock exclusively
    /// meanwhile, so that a backup starting waits for it; returns what it returned, or 0 when it did not run.
    @discardableResult
    private func unlessBackingUp(_ remove: () throws -> Int) rethrows -> Int {
        // No lock file: no backup ever ran here (`flock` creates it).
        let fd = SystemCall.retrying { open(backupLock, O_RDWR | O_CLOEXEC) }
        guard fd >= 0 else { return try remove() }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return 0 }
        defer { flock(fd, LOCK_UN) }
        return try remove()
    }

    private func sweepUnlocked(_ versionID: Int64) throws -> Int {
        let directory = directory(of: versionID)
        guard let names = try Self.entries(of: directory) else { return 0 }
        guard let keep = try storedFiles(versionID) else { return 0 }
        var removed = 0
        for name in names {
            guard let index = Int64(name), !keep.contains(index) else { continue }
            if unlink("\(directory)/\(name)") == 0 { removed += 1 }
        }
        if keep.isEmpty { _ = rmdir(directory) }
        return removed
    }

    /// Sweeps (``sweep(_:)``) every version folder, and empties ``trash`` (files a crash left there); returns how
    /// many files it removed. Blocking.
    @discardableResult
    package func sweepAll() throws -> Int {
        // The listing comes before each version's lookup: a version folder made after it is left alone, and one
        // listed was made after its version's row, so the lookup sees that row.
        try unlessBackingUp {
            try (Self.entries(of: root) ?? []).compactMap(Int64.init).reduce(0) { try $0 + sweepUnlocked($1) }
        } + unlinker.sync { (try? Self.empty(trash)) ?? 0 }
    }

    /// The names in `directory`, or `nil` when it does not exist.
    private static func entries(of directory: String) throws -> [String]? {
        guard let stream = opendir(directory) else {
            if errno == ENOENT { return nil }
            throw POSIXFailure(errno: errno, "list \(directory)")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            // Every name this folder holds is ASCII: one that is not UTF-8 is not a chunk file.
            guard let name = DirectoryEntry.name(entry), name != ".", name != ".." else { continue }
            names.append(name)
        }
        return names
    }
}

/// The chunk files one save writes (``ChunkFiles``): a chunk's pieces are appended to its file as they stream in,
/// and the file is fsynced and closed at the chunk's end. Its blocking methods run on the pool, one batch at a time.
final class ChunkFileWriter: ChunkBodyWriter {
    private struct State {
        /// The file of the chunk being written, its index, and how its bytes go to disk.
        var open: (fd: Int32, chunkIndex: Int, writeback: StreamingWrite)?
        /// Whether files were created since the folder was last fsynced.
        var unsyncedNames = false
    }

    let files: ChunkFiles
    let versionID: Int64
    private let state = Mutex(State())

    init(files: ChunkFiles, versionID: Int64) {
        self.files = files
        self.versionID = versionID
    }

    /// Appends `pieces` (of chunks stored as files, in order) to their files, then fsyncs the files of the chunks
    /// `ending` and, when it created any, the version's folder: a chunk keyed after this returns is on disk.
    func storeBlocking(_ pieces: [ChunkSQL.Piece], ending: [Int]) throws {
        try state.withLock { state in
            for piece in pieces {
                if piece.pieceIndex == 0 {
                    // The previous chunk ended (its key is in this batch): its file is complete.
                    try closeOpen(&state)
                    let fd = try create(piece.chunkIndex)
                    state.open = (
                        fd, piece.chunkIndex,
                        StreamingWrite(descriptor: fd, path: files.path(of: key(piece.chunkIndex)))
                    )
                    state.unsyncedNames = true
                }
                guard let (fd, chunkIndex, _) = state.open, chunkIndex == piece.chunkIndex else {
                    throw StorageError(.io, "The pieces of chunk \(piece.chunkIndex) came out of order; retry.")
                }
                try append(piece.data, to: fd, chunk: chunkIndex)
                try state.open?.writeback.appended(piece.data.count)
            }
            for chunkIndex in ending where state.open?.chunkIndex == chunkIndex { try closeOpen(&state) }
            if !ending.isEmpty && state.unsyncedNames {
                try Self.syncDirectory(files.directory(of: versionID))
                state.unsyncedNames = false
            }
        }
    }

    /// Closes and removes the file being written, if any (the write failed; no row names that file yet), so that a
    /// full disk has its space back before the version is discarded.
    func abandonBlocking() {
        state.withLock { state in
            guard let (fd, chunkIndex, _) = state.open else { return }
            close(fd)
            _ = unlink(files.path(of: key(chunkIndex)))
            state.open = nil
        }
    }

    /// Removes the files of chunks `chunkIndexes`, which no row names (they lost to a copy stored before).
    func removeBlocking(_ chunkIndexes: [Int]) {
        for chunkIndex in chunkIndexes { _ = unlink(files.path(of: key(chunkIndex))) }
    }

    /// Fsyncs and closes the file being written, if any.
    private func closeOpen(_ state: inout State) throws {
        guard let (fd, chunkIndex, _) = state.open else { return }
        state.open = nil
        defer { close(fd) }
        guard SystemCall.retrying({ fsync(fd) }) == 0 else {
            throw POSIXFailure(errno: errno, "fsync \(files.path(of: key(chunkIndex)))")
        }
    }

    func store(_ pieces: [ChunkSQL.Piece], ending: [Int]) async throws {
        try await files.pool.runBlocking("store part of an upload") { try self.storeBlocking(pieces, ending: ending) }
    }

    func abandon() async {
        try? await files.pool.runBlocking("close a chunk file") { self.abandonBlocking() }
    }

    func remove(_ chunkIndexes: [Int]) async throws {
        try await files.pool.runBlocking("remove duplicate chunk files") { self.removeBlocking(chunkIndexes) }
    }

    private func key(_ chunkIndex: Int) -> PieceKey { PieceKey(versionID: versionID, chunkIndex: Int64(chunkIndex)) }

    /// Creates the file of chunk `chunkIndex`, and the folders above it when missing.
    private func create(_ chunkIndex: Int) throws -> Int32 {
        let path = files.path(of: key(chunkIndex))
        let fd = SystemCall.retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        if fd >= 0 { return fd }
        guard errno == ENOENT else { throw POSIXFailure(errno: errno, "create \(path)") }
        try makeDirectory(files.root, parent: nil)
        try makeDirectory(files.directory(of: versionID), parent: files.root)
        let retried = SystemCall.retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard retried >= 0 else { throw POSIXFailure(errno: errno, "create \(path)") }
        return retried
    }

    /// Creates `directory` unless it exists; when it did not, fsyncs `parent` so that its name survives a crash.
    private func makeDirectory(_ directory: String, parent: String?) throws {
        guard mkdir(directory, 0o700) == 0 else {
            guard errno == EEXIST else { throw POSIXFailure(errno: errno, "create \(directory)") }
            return
        }
        if let parent { try Self.syncDirectory(parent) }
    }

    private func append(_ data: Data, to fd: Int32, chunk chunkIndex: Int) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = SystemCall.retrying { write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
                guard written > 0 else { throw POSIXFailure(errno: errno, "write \(files.path(of: key(chunkIndex)))") }
                offset += written
            }
        }
    }

    /// Flushes a folder, so that the names just created in it survive a crash.
    private static func syncDirectory(_ path: String) throws {
        let fd = SystemCall.retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw POSIXFailure(errno: errno, "open \(path)") }
        defer { close(fd) }
        guard SystemCall.retrying({ fsync(fd) }) == 0 else { throw POSIXFailure(errno: errno, "fsync \(path)") }
    }
}
