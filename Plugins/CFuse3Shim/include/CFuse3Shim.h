#ifndef WOPIKIT_CFUSE3SHIM_H
#define WOPIKIT_CFUSE3SHIM_H
/* Small C helpers around libfuse3 macros that Swift cannot call; owned by the FUSEMount plugin. */
int wopikit_fuse_shim_version(void);
#endif
