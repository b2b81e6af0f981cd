#define FUSE_USE_VERSION 35
#include <errno.h>
#include <fuse3/fuse_lowlevel.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "CFuse3Shim.h"

struct wopikit_fuse {
    struct fuse_session *session;
    struct fuse_args args;  /* argv owned here for the session's whole life */
    int wakeup_fd;          /* eventfd written by wopikit_fuse_stop */
    int mounted;
};

wopikit_fuse *wopikit_fuse_create(const char *const *options, int option_count, const void *ops, size_t ops_size,
                                  void *userdata) {
    wopikit_fuse *fuse = calloc(1, sizeof(*fuse));
    if (fuse == NULL) return NULL;
    fuse->wakeup_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (fuse->wakeup_fd < 0) {
        free(fuse);
        return NULL;
    }
    int argc = 1 + 2 * option_count;
    char **argv = calloc((size_t)argc + 1, sizeof(char *));
    if (argv == NULL) {
        close(fuse->wakeup_fd);
        free(fuse);
        return NULL;
    }
    argv[0] = strdup("wopikit-fuse");
    for (int i = 0; i < option_count; i++) {
        argv[1 + 2 * i] = strdup("-o");
        argv[2 + 2 * i] = strdup(options[i]);
    }
    fuse->args.argc = argc;
    fuse->args.argv = argv;
    fuse->args.allocated = 0;
    fuse->session = fuse_session_new(&fuse->args, (const struct fuse_lowlevel_ops *)ops, ops_size, userdata);
    if (fuse->session == NULL) {
        wopikit_fuse_destroy(fuse);
        return NULL;
    }
    return fuse;
}

int wopikit_fuse_mount(wopikit_fuse *fuse, const char *mountpoint) {
    if (fuse_session_mount(fuse->session, mountpoint) != 0) return -1;
    fuse->mounted = 1;
    return 0;
}

int wopikit_fuse_loop(wopikit_fuse *fuse) {
    struct fuse_session *se = fuse->session;
    struct fuse_buf buf = {.mem = NULL};
    struct pollfd fds[2];
    int result = 0;
    while (!fuse_session_exited(se)) {
        fds[0].fd = fuse_session_fd(se);
        fds[0].events = POLLIN;
        fds[0].revents = 0;
        fds[1].fd = fuse->wakeup_fd;
        fds[1].events = POLLIN;
        fds[1].revents = 0;
        int ready = poll(fds, 2, -1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            result = -errno;
            break;
        }
        if (fds[1].revents != 0) break;
        if (fds[0].revents == 0) continue;
        int res = fuse_session_receive_buf(se, &buf);
        if (res == -EINTR || res == -EAGAIN) continue;
        if (res <= 0) {
            /* 0 or -ENODEV: the file system was unmounted. */
            if (res < 0 && res != -ENODEV) result = res;
            break;
        }
        fuse_session_process_buf(se, &buf);
    }
    free(buf.mem);
    return result;
}

void wopikit_fuse_stop(wopikit_fuse *fuse) {
    uint64_t one = 1;
    ssize_t written = write(fuse->wakeup_fd, &one, sizeof(one));
    (void)written;
}

void wopikit_fuse_mark_unmounted(wopikit_fuse *fuse) { fuse->mounted = 0; }

void wopikit_fuse_destroy(wopikit_fuse *fuse) {
    if (fuse == NULL) return;
    if (fuse->session != NULL) {
        if (fuse->mounted) fuse_session_unmount(fuse->session);
        fuse_session_destroy(fuse->session);
    }
    if (fuse->args.argv != NULL) {
        for (int i = 0; i < fuse->args.argc; i++) free(fuse->args.argv[i]);
        free(fuse->args.argv);
    }
    close(fuse->wakeup_fd);
    free(fuse);
}

void wopikit_fuse_configure_connection(void *raw) {
    struct fuse_conn_info *conn = raw;
    if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC) conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
    conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE;
}

static void (*log_handler)(int, const char *) = NULL;

static void forward_log(enum fuse_log_level level, const char *fmt, va_list ap) {
    char message[1024];
    vsnprintf(message, sizeof(message), fmt, ap);
    size_t length = strlen(message);
    while (length > 0 && message[length - 1] == '\n') message[--length] = '\0';
    if (log_handler != NULL) log_handler((int)level, message);
}

void wopikit_fuse_set_log_handler(void (*handler)(int level, const char *message)) {
    log_handler = handler;
    fuse_set_log_func(forward_log);
}

size_t wopikit_fuse_add_direntry(void *req, char *buf, size_t bufsize, const char *name, uint64_t ino,
                                 uint32_t mode, int64_t next_offset) {
    struct stat st;
    memset(&st, 0, sizeof(st));
    st.st_ino = ino;
    st.st_mode = mode;
    return fuse_add_direntry((fuse_req_t)req, buf, bufsize, name, &st, (off_t)next_offset);
}
