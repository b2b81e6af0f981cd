#define FUSE_USE_VERSION 35
#include <fuse3/fuse.h>
#include "CFuse3Shim.h"
int wopikit_fuse_shim_version(void) { return fuse_version(); }
