/* extents.c - shared-extent test through the FIEMAP ioctl (Linux). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "observe/extents.h"

#ifdef HAVE_FIEMAP
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#define EXTENTS_MAX 64

int extents_shared(int fd)
{
	size_t len = sizeof(struct fiemap) + EXTENTS_MAX * sizeof(struct fiemap_extent);
	struct fiemap *fm = calloc(1, len);
	unsigned i;
	int rc = 0;

	if (!fm)
		return -ENOMEM;
	fm->fm_start = 0;
	fm->fm_length = UINT64_MAX;
	fm->fm_flags = 0;	/* no FIEMAP_FLAG_SYNC: the caller has synced, and a sync here
				 * would write data on the copy's behalf */
	fm->fm_extent_count = EXTENTS_MAX;
	if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
		rc = -errno;
		free(fm);
		return rc;
	}
	for (i = 0; i < fm->fm_mapped_extents && i < EXTENTS_MAX; i++)
		if (fm->fm_extents[i].fe_flags & FIEMAP_EXTENT_SHARED) {
			rc = 1;
			break;
		}
	free(fm);
	return rc;
}
#else
int extents_shared(int fd)
{
	(void)fd;
	return -ENOSYS;
}
#endif
