/* extents.h - whether a file's blocks are shared with another file (a reflink, a clone):
 * the one thing that makes copy_file_range instant on XFS, btrfs, bcachefs or OCFS2.
 * Thread-safe. */
#ifndef IOB_OBSERVE_EXTENTS_H
#define IOB_OBSERVE_EXTENTS_H

/* 1 when an extent of fd is marked shared (FIEMAP_EXTENT_SHARED), 0 when none is, or
 * -errno when the file system cannot tell (-EOPNOTSUPP, -ENOTTY; -ENOSYS where the build
 * has no FIEMAP). Looks at the first 64 extents, which a fresh copy's sharing shows in. */
int extents_shared(int fd);

#endif
