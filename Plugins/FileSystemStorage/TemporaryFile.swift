import Foundation
import NIOCore
import Synchronization
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file in `.wopikit/tmp` that content streams into before it is renamed into place.
///
/// The writer holds an exclusive `flock` on it, so a starting instance never removes a live writer's file. If the
/// file is dropped without being committed, it is removed.
final class TemporaryFile: Sendable {
    let name: String
    let descriptor: Descriptor
    private let directory: Descriptor
    private let committed = Mutex(false)
    /// How the appended bytes go to disk.
    private let writeback: Mutex<StreamingWrite>

    init(in directory: Descriptor) throws {
        self.directory = directory
        name = "write-\(ItemID.random()).tmp"
        descriptor = try Descriptor.open(name, in: directory, flags: O_RDWR | O_CREAT | O_EXCL, mode: 0o644)
        try descriptor.advisoryLock(LOCK_EX | LOCK_NB)
        writeback = Mutex(StreamingWrite(descriptor: descriptor.raw, path: ".wopikit/tmp/\(name)"))
    }

    deinit {
        if !committed.withLock({ $0 }) { _ = unlinkat(directory.raw, name, 0) }
    }

    /// Appends `chunks` in order, handing them to the disk on the way (``StreamingWrite``).
    func append(_ chunks: [ByteBuffer]) throws {
        var appended = 0
        for chunk in chunks {
            try chunk.withUnsafeReadableBytes { try descriptor.writeAll($0) }
            appended += chunk.readableBytes
        }
        try writeback.withLock { writeback throws(POSIXFailure) in try writeback.appended(appended) }
    }

    /// Flushes the content to disk and stamps it with a new version and its SHA-256.
    func finish(sha256: Data) throws -> (FileStatus, ContentStamp) {
        try descriptor.sync()
        let status = try descriptor.status()
        let stamp = ContentStamp(
            token: ItemID.random().rawValue, modifiedNanoseconds: status.modifiedNanoseconds, size: status.size,
            sha256: sha256)
        try POSIX.setAttribute(POSIX.stampAttribute, to: stamp.attributeValue, of: descriptor)
        return (status, stamp)
    }

    /// Notes that the file was renamed or linked into the tree, so it is not removed.
    func markCommitted() {
        committed.withLock { $0 = true }
    }
}
