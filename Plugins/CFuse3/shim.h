#ifndef WOPIKIT_CFUSE3_SHIM_H
#define WOPIKIT_CFUSE3_SHIM_H
#define FUSE_USE_VERSION 35
#include <fuse3/fuse.h>
#include <fuse3/fuse_lowlevel.h>
#endif
