#ifndef WOPIKIT_CFUSE3SHIM_H
#define WOPIKIT_CFUSE3SHIM_H
/*
 * Small C helpers around libfuse3 for the FUSEMount plugin: the parts Swift cannot express (macros, argv that
 * must outlive the session, a request loop that can be stopped from another thread, variadic logging).
 *
 * Only `void *` crosses this header for libfuse types, so that Swift sees one definition of each libfuse
 * struct (the one from the CFuse3 module).
 */
#include <stddef.h>
#include <stdint.h>

/** One libfuse low-level session together with the memory it borrows; opaque to Swift. */
typedef struct wopikit_fuse wopikit_fuse;

/**
 * Creates a low-level session. `options` are `-o` mount options (e.g. "fsname=x", "ro"), copied here and
 * kept until `wopikit_fuse_destroy`. `ops` points to a `struct fuse_lowlevel_ops` (copied by libfuse).
 * Returns NULL on failure (libfuse logs why).
 */
wopikit_fuse *wopikit_fuse_create(const char *const *options, int option_count, const void *ops, size_t ops_size,
                                  void *userdata);

/** Mounts the session at `mountpoint`; 0 on success, -1 on failure. */
int wopikit_fuse_mount(wopikit_fuse *fuse, const char *mountpoint);

/**
 * Serves requests on the calling thread until the file system is unmounted or `wopikit_fuse_stop` is called.
 * Returns 0 on a normal end, or a negative errno.
 */
int wopikit_fuse_loop(wopikit_fuse *fuse);

/** Makes `wopikit_fuse_loop` return soon; safe to call from any thread, any number of times. */
void wopikit_fuse_stop(wopikit_fuse *fuse);

/** Records that the caller unmounted the file system itself, so `wopikit_fuse_destroy` does not try again. */
void wopikit_fuse_mark_unmounted(wopikit_fuse *fuse);

/** Unmounts (if still mounted) and frees everything; call after `wopikit_fuse_loop` returned. */
void wopikit_fuse_destroy(wopikit_fuse *fuse);

/** Adjusts the connection in the `init` callback: asks for atomic O_TRUNC, keeps the write-back cache off. */
void wopikit_fuse_configure_connection(void *conn);

/** Sends libfuse's own log lines to `handler` (level as in `enum fuse_log_level`, message without newline). */
void wopikit_fuse_set_log_handler(void (*handler)(int level, const char *message));

/** Appends one directory entry to `buf` (see `fuse_add_direntry`); returns the size it needs. */
size_t wopikit_fuse_add_direntry(void *req, char *buf, size_t bufsize, const char *name, uint64_t ino,
                                 uint32_t mode, int64_t next_offset);

#endif
