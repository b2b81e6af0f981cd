/// How a file that content streams into is flushed on the way: the file-system backend's temporary files and the
/// chunk files of `ChunkedVersionStore`.
package enum StreamingWrite {
    /// How many bytes are written between two `fdatasync`s while content streams in: the disk writes while the next
    /// batches arrive, so the fsync at the end has at most this much left to write (the kernel starts writing back only
    /// past `dirty_background_ratio`, and would otherwise hold a whole 1 GiB file dirty until then).
    package static let syncInterval = 16 << 20
}
