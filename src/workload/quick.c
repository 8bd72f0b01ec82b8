/* quick.c - the dd and cp steps of the quick battery (`iobattery run`): the seeds'
 * `dd bs=1024 if=/dev/zero of=tstfile`, a read of it from cache and after dropping it,
 * and `cp tstfile tstfile2`, at a size that finishes in seconds. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "workload/copy.h"
#include "workload/dd.h"
#include "runner/runner.h"
#include "workload/workload.h"

#define QUICK_DEFAULT_SIZE (512ull << 20)

static uint64_t quick_size(const struct runner *rc)
{
	return rc->size_hint ? rc->size_hint : QUICK_DEFAULT_SIZE;
}

int dd_quick(struct runner *rc, const char *dir)
{
	char path[PATH_MAX];
	struct dd_job j;
	int err;

	snprintf(path, sizeof(path), "%s/tstfile", dir);
	memset(&j, 0, sizeof(j));
	j.src = DD_SRC_ZERO;
	j.dst = DD_DST_FILE;
	j.out = path;
	j.ibs = j.obs = 1u << 20;
	j.count = (quick_size(rc) + j.ibs - 1) / j.ibs;
	j.conv = DD_CONV_FDATASYNC;
	j.keep_output = 1;
	err = dd_run(rc, &j);
	if (err)
		return err;
	/* Read it back as written (from the page cache: the figure is flagged), then after
	 * dropping its pages, which is the disk. */
	memset(&j, 0, sizeof(j));
	j.src = DD_SRC_FILE;
	j.dst = DD_DST_NULL;
	j.in = path;
	j.ibs = j.obs = 1u << 20;
	j.count = UINT64_MAX;
	err = dd_run(rc, &j);
	if (err)
		return err;
	j.drop_cache = 1;
	return dd_run(rc, &j);
}

int cp_quick(struct runner *rc, const char *dir)
{
	char src[PATH_MAX], dst[PATH_MAX];
	struct copy_job j;
	int err;

	snprintf(src, sizeof(src), "%s/tstfile", dir);
	snprintf(dst, sizeof(dst), "%s/tstfile2", dir);
	memset(&j, 0, sizeof(j));
	j.src = src;
	j.dst = dst;
	j.buffer = 128u << 10;
	j.method = COPY_AUTO;
	j.keep_output = 0;
	err = copy_run(rc, &j);
	if (err)
		return err;
	j.method = COPY_RW;
	return copy_run(rc, &j);
}
