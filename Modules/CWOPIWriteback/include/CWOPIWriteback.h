#ifndef CWOPIWRITEBACK_H
#define CWOPIWRITEBACK_H

/// Starts the disk writing the `length` bytes of `fd` at `offset`, without waiting for it: `sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE` on Linux, `fsync` elsewhere. Returns 0, or -1 with `errno` set.
int wopikit_start_writeback(int fd, long long offset, long long length);

/// Waits until the `length` bytes of `fd` at `offset` are written to the disk, starting what is not started:
/// `sync_file_range` with `SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER` on
/// Linux; elsewhere nothing, `wopikit_start_writeback` having waited already. Returns 0, or -1 with `errno` set.
///
/// Neither call makes the data durable: they write no metadata and flush no disk cache. Only `fsync` does.
int wopikit_wait_writeback(int fd, long long offset, long long length);

#endif
