import CWOPIWriteback

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a file that content streams into goes to disk on the way: the file-system backend's temporary files and the
/// chunk files of `ChunkedVersionStore`. One value follows one file, appended to from its start.
///
/// Every ``syncInterval`` bytes, the disk starts writing the interval just appended, without the writer waiting
/// for it (`sync_file_range` on Linux), and the writer waits for the interval before, which the disk has had a whole
/// interval's time to write. So at most two intervals are unwritten at any time, and the `fsync` that makes the
/// file durable at its end has little left to do. Without this the kernel starts writing back only past
/// `dirty_background_ratio`, and would hold a whole 1 GiB file dirty until the `fsync`; with an `fdatasync` per
/// interval instead, the writer stopped for the disk 64 times per GiB. Nothing here makes data durable: the file's
/// `fsync` at its end does.
package struct StreamingWrite: Sendable {
    /// How many bytes the disk is handed at a time.
    package static let syncInterval: Int64 = 16 << 20

    private let descriptor: Int32
    /// The file's path, for errors.
    private let path: String
    /// The bytes appended so far.
    private var appended: Int64 = 0
    /// Where the bytes not handed to the disk yet start.
    private var unstarted: Int64 = 0
    /// The interval handed to the disk last, not waited for yet.
    private var writing: Range<Int64>?

    /// Follows the writes to `descriptor`, the file at `path` appended to from its start.
    package init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Notes `count` more bytes appended to the file; once ``syncInterval`` bytes are not handed to the disk, hands
    /// them to it and waits for the interval handed to it before.
    package mutating func appended(_ count: Int) throws(POSIXFailure) {
        appended += Int64(count)
        guard appended - unstarted >= Self.syncInterval else { return }
        let next = unstarted..<appended
        guard SystemCall.retrying({ wopikit_start_writeback(descriptor, next.lowerBound, Int64(next.count)) }) == 0
        else { throw POSIXFailure(errno: errno, "sync_file_range \(path)") }
        if let writing {
            guard
                SystemCall.retrying({ wopikit_wait_writeback(descriptor, writing.lowerBound, Int64(writing.count)) })
                    == 0
            else { throw POSIXFailure(errno: errno, "sync_file_range \(path)") }
        }
        writing = next
        unstarted = appended
    }
}
