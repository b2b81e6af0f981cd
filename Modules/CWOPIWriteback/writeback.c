#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

#include "CWOPIWriteback.h"

int wopikit_start_writeback(int fd, long long offset, long long length) {
#ifdef __linux__
    return sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE);
#else
    (void)offset;
    (void)length;
    return fsync(fd);
#endif
}

int wopikit_wait_writeback(int fd, long long offset, long long length) {
#ifdef __linux__
    return sync_file_range(
        fd, offset, length, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
#else
    (void)fd;
    (void)offset;
    (void)length;
    return 0;
#endif
}
