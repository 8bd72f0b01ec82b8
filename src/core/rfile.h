/* rfile.h - reading a whole input file that must be a regular file (a result, a script,
 * a legacy output to import): opened with O_NONBLOCK and checked with fstat before any
 * read, so that a FIFO, a device or a directory is refused at once instead of blocking
 * or being taken as an empty file. Thread-safe (no shared state). */
#ifndef IOB_CORE_RFILE_H
#define IOB_CORE_RFILE_H

#include <stddef.h>

/* flags of rfile_open and rfile_read */
#define RFILE_PIPES	1u	/* a pipe or FIFO is taken too (a script on /dev/stdin): the
				 * open cannot block (O_NONBLOCK), a read with no writer ends
				 * at once, and a stop signal ends a read that waits */
#define RFILE_BLOCKDEV	2u	/* a block device is taken too (rfile_open only: the data
				 * `verify` checks may be on a device) */

/* Open path for reading: a file descriptor (blocking again, close-on-exec) of a regular
 * file (or with RFILE_PIPES a pipe), or -errno: -EISDIR for a directory, -EINVAL for
 * another kind of file (FIFO, socket, device), the open error otherwise. */
int rfile_open(const char *path, unsigned flags);

/* Read all of the regular file path (at most max bytes, else -EFBIG) into a new
 * NUL-terminated buffer *buf (caller frees) of *len bytes (the NUL not counted; the
 * text may hold NUL bytes of its own). 0 or -errno as rfile_open, -EFBIG, -ENOMEM, or
 * the read error, -EINTR when a stop signal came during a read. */
int rfile_read(const char *path, unsigned flags, size_t max, char **buf, size_t *len);

/* A reason for what rfile_open or rfile_read returned: "not a regular file" for -EINVAL,
 * "larger than the limit" for -EFBIG, else strerror. Static string. */
const char *rfile_strerror(int rc);

#endif
