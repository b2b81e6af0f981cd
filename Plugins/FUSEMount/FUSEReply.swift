import CFuse3
import Foundation

/// The answer to one FUSE request, made by asynchronous work and sent exactly once.
enum FUSEReply: Sendable {
    /// Success without data (`0`) or an `errno`.
    case status(Int32)
    /// A directory entry (lookup, mkdir).
    case entry(fuse_entry_param)
    /// Attributes with their cache time in seconds.
    case attributes(stat, timeout: Double)
    /// An open file handle.
    case opened(handle: UInt64)
    /// A new file's entry and its open handle.
    case created(fuse_entry_param, handle: UInt64)
    /// An open directory handle.
    case openedDirectory(handle: UInt64)
    /// Data read.
    case bytes([UInt8])
    /// The number of bytes written.
    case written(Int)
    /// File-system statistics.
    case statistics(statvfs)

    /// Sends the reply; returns `false` when the kernel no longer waits for it (the request was interrupted).
    @discardableResult
    func send(to request: FUSERequest) -> Bool {
        let raw = request.raw
        let result: Int32
        switch self {
        case .status(let code):
            result = fuse_reply_err(raw, code)
        case .entry(var entry):
            result = fuse_reply_entry(raw, &entry)
        case .attributes(var attributes, let timeout):
            result = fuse_reply_attr(raw, &attributes, timeout)
        case .opened(let handle), .openedDirectory(let handle):
            var info = fuse_file_info()
            info.fh = handle
            result = fuse_reply_open(raw, &info)
        case .created(var entry, let handle):
            var info = fuse_file_info()
            info.fh = handle
            result = fuse_reply_create(raw, &entry, &info)
        case .bytes(let bytes):
            result = bytes.withUnsafeBytes {
                fuse_reply_buf(raw, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count)
            }
        case .written(let count):
            result = fuse_reply_write(raw, count)
        case .statistics(var statistics):
            result = fuse_reply_statfs(raw, &statistics)
        }
        return result == 0
    }

    /// Undoes what an undelivered reply would have handed to the kernel (open handles), so nothing leaks.
    func abandon(in fileSystem: FUSEFileSystem) {
        switch self {
        case .opened(let handle), .created(_, let handle):
            fileSystem.release(handle: handle)
        case .openedDirectory(let handle):
            fileSystem.openFiles.removeDirectory(handle)
        default:
            break
        }
    }
}
