package import Foundation
package import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One small file that is only ever replaced whole, durably, and readable by its owner alone (mode 0600).
///
/// The one write path of the stores that keep state in files (users, OAuth records, client tokens, secret keys).
/// A write goes to a temporary file in the same directory, created with mode 0600, is flushed with `fsync`, and
/// then takes the file's name with `rename(2)` (replace) or `link(2)` (create, never replacing); the directory is
/// flushed after that, so the new name survives a crash. A reader therefore sees the old content or the new, never
/// a partial file, in this process or any other. ``update(_:)`` also serialises read-modify-write cycles of all
/// processes with an exclusive `flock` on a companion `.lock` file.
///
/// Every method runs its system calls on a `NIOThreadPool`, never on Swift's cooperative threads. Failures are
/// ``StorageError``s that name the file and say what to do.
package struct AtomicFile: Sendable {
    /// The file.
    package let url: URL
    /// The mode of the file's directory when this creates it (missing ancestors get the default mode).
    package let directoryMode: mode_t
    /// The pool that runs the blocking calls.
    package let pool: NIOThreadPool

    /// Describes the file at `url`; nothing is touched until a method is called.
    package init(url: URL, directoryMode: mode_t = 0o700, pool: NIOThreadPool = .singleton) {
        self.url = url
        self.directoryMode = directoryMode
        self.pool = pool
    }

    /// The file's content, or `nil` when it does not exist.
    package func read() async throws -> Data? {
        try await pool.runBlocking("Reading \(url.path)") { [self] in try readNow() }
    }

    /// Replaces the file's content with `data`, creating the file (and its directory) when missing.
    package func replace(with data: Data) async throws {
        try await pool.runBlocking("Writing \(url.path)") { [self] in try replaceNow(with: data) }
    }

    /// Creates the file with `data` unless it exists, and returns the content it holds afterwards: `data`, or what
    /// another writer put there first. Racing creators all return the same content.
    package func readOrCreate(_ data: Data) async throws -> Data {
        try await pool.runBlocking("Creating \(url.path)") { [self] in
            if let existing = try readNow() { return existing }
            try ensureDirectory()
            let temporary = try writeTemporary(data)
            defer { _ = unlink(temporary) }
            if link(temporary, url.path) != 0 {
                guard errno == EEXIST else { throw POSIXFailure(errno: errno, "link \(url.path)") }
                return try readNow() ?? data
            }
            try syncDirectory()
            return data
        }
    }

    /// Deletes the file; deleting a missing file is not an error.
    package func remove() async throws {
        try await pool.runBlocking("Deleting \(url.path)") { [self] in
            guard unlink(url.path) == 0 || errno == ENOENT else { throw POSIXFailure(errno: errno, "unlink") }
            try syncDirectory(allowingMissing: true)
        }
    }

    /// Runs `change` on the current content (`nil` when missing) under an exclusive lock that all processes honour,
    /// writes the new content it returns (unless `nil`), and returns its result.
    ///
    /// The lock is an `flock` on `<file>.lock`, held on a pool thread for the whole cycle; `change` runs there too,
    /// so keep it short and free of `await`.
    package func update<T: Sendable>(_ change: @escaping @Sendable (Data?) throws -> (Data?, T)) async throws -> T {
        try await pool.runBlocking("Updating \(url.path)") { [self] in
            try ensureDirectory()
            let lock = SystemCall.retrying { open(url.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
            guard lock >= 0 else { throw POSIXFailure(errno: errno, "open \(url.path).lock") }
            defer { close(lock) }  // closing releases the lock
            guard SystemCall.retrying({ flock(lock, LOCK_EX) }) == 0 else {
                throw POSIXFailure(errno: errno, "flock \(url.path).lock")
            }
            let (data, result) = try change(try readNow())
            if let data { try replaceNow(with: data) }
            return result
        }
    }

    // MARK: - On a pool thread

    private var directory: URL { url.deletingLastPathComponent() }

    private func readNow() throws -> Data? {
        let fd = SystemCall.retrying { open(url.path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw POSIXFailure(errno: errno, "open \(url.path)")
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                SystemCall.retrying { pread(fd, bytes.baseAddress, bytes.count, off_t(data.count)) }
            }
            guard count >= 0 else { throw POSIXFailure(errno: errno, "read \(url.path)") }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }

    private func replaceNow(with data: Data) throws {
        try ensureDirectory()
        let temporary = try writeTemporary(data)
        guard rename(temporary, url.path) == 0 else {
            let code = errno
            _ = unlink(temporary)
            throw POSIXFailure(errno: code, "rename over \(url.path)")
        }
        try syncDirectory()
    }

    /// Writes `data` to a new temporary file beside the target (mode 0600, flushed) and returns its path.
    private func writeTemporary(_ data: Data) throws -> String {
        let name = ".\(url.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let path = directory.appendingPathComponent(name).path
        let fd = SystemCall.retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw POSIXFailure(errno: errno, "create \(path)") }
        defer { close(fd) }
        do {
            // The umask can only have removed bits; make the mode exactly 0600 whatever it is.
            guard fchmod(fd, 0o600) == 0 else { throw POSIXFailure(errno: errno, "chmod \(path)") }
            try data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = SystemCall.retrying {
                        write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    }
                    guard written > 0 else { throw POSIXFailure(errno: errno, "write \(path)") }
                    offset += written
                }
            }
            guard SystemCall.retrying({ fsync(fd) }) == 0 else { throw POSIXFailure(errno: errno, "fsync \(path)") }
        } catch {
            _ = unlink(path)
            throw error
        }
        return path
    }

    /// Creates the directory (mode ``directoryMode``) and its missing ancestors.
    private func ensureDirectory() throws {
        var status = stat()
        if stat(directory.path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw StorageError(
                    .io, "\(directory.path) exists but is not a directory; move it away or choose another location.")
            }
            return
        }
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw StorageError(
                .io, "Creating the folder \(parent.path) failed; check the permissions of the folders above it.",
                underlying: error)
        }
        guard mkdir(directory.path, directoryMode) == 0 || errno == EEXIST else {
            throw POSIXFailure(errno: errno, "create \(directory.path)")
        }
    }

    /// Flushes the directory, so a name just created, replaced or removed survives a crash.
    private func syncDirectory(allowingMissing: Bool = false) throws {
        let fd = SystemCall.retrying { open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else {
            if allowingMissing && errno == ENOENT { return }
            throw POSIXFailure(errno: errno, "open \(directory.path)")
        }
        defer { close(fd) }
        guard SystemCall.retrying({ fsync(fd) }) == 0 else {
            throw POSIXFailure(errno: errno, "fsync \(directory.path)")
        }
    }
}
