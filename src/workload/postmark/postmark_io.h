/* postmark_io.h - the file operations of a PostMark run on a file system (postmark_io.c).
 * One context per run; not thread-safe. */
#ifndef IOB_WORKLOAD_POSTMARK_IO_H
#define IOB_WORKLOAD_POSTMARK_IO_H

#include <stddef.h>
#include <stdint.h>

#include "workload/postmark/postmark.h"

#include "runner/ioctx.h"

struct pm_io_ctx {
	struct ioctx io;		/* every call goes through the runner's engine */
	struct engine_req *rq;		/* its one request, reused */
	int dirfd[PM_MAX_LOCS];		/* the scratch directory of each location */
	unsigned nloc;
	uint32_t subdirs;
	int buffered, fsync, direct;
	uint32_t bufsz;			/* the stdio-like buffer: st_blksize of the directory */
	uint32_t wchunk, rchunk;	/* bytes per write / read call */
	char *rbuf;			/* read buffer, rchunk bytes, 4096-aligned */
	uint64_t direct_fallbacks;	/* transfers retried without O_DIRECT */
	char prefix[16];		/* several ranks in one directory: "rN." before each
					 * file's name; "" alone */
	char *const *dirs;		/* the locations' paths (for --verify's names) */
	int verify;			/* the ioctx has a --verify hook: name each file */
};

/* Open the scratch directories dirs[0..nlocs-1] (one when cfg has no location), make the
 * subdirectories, set up the engine (a synchronous one). rank >= 0: several ranks share
 * the directories (--shared-dir): the subdirectories may exist already and file names
 * get "rRANK." in front. Returns 0 or -errno with the reason in err. */
int pm_io_open(struct pm_io_ctx *x, const struct pm_config *c, const struct engine *eng,
	       char *const *dirs, int rank, char *err, size_t errlen);
/* Remove the subdirectories (when empty), close everything. */
void pm_io_close(struct pm_io_ctx *x);

extern const struct pm_io pm_io_files;

#endif
