/* job_check.h - what `iobattery job` may touch, checked before anything is created:
 * every file of a plan (workload/job/job_run.h) against the safety rules, the sizes of
 * existing files and devices, the regions against them, the free space. */
#ifndef IOB_WORKLOAD_JOB_CHECK_H
#define IOB_WORKLOAD_JOB_CHECK_H

#include <stddef.h>

struct job_plan;
struct job_safety;

/* The rules (DESIGN.md 1.5, and the Safety):
 *  - files without filename= are created in the run's scratch directory;
 *  - a filename= that does not exist is a named new file (its directory must exist);
 *  - an existing regular file may be read; written only with --overwrite or when
 *    iobattery made it (its mark); a region past its end is refused unless it may be
 *    written (then it is extended), and a read region holding holes is refused (reading
 *    a never-written block measures nothing);
 *  - a block device only when --destroy-data-on names that device and it passes
 *    devsafe_check; other special files and symbolic links are refused;
 *  - the bytes to lay out must fit in the free space.
 * Fills each file's have/exists/device and the regions of threads that had no size.
 * Returns 0, or -EINVAL with one message in err naming the job file, section and line.
 * Not thread-safe (writes the plan). */
int job_plan_check(struct job_plan *p, const struct job_safety *sf, char *err,
		   size_t errlen);

#endif
