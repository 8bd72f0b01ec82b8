/* job_xcheck.c - the checks of the second option table (job_xopts.h) once a job is
 * complete: what fio refuses, what this system cannot do (zoned devices, NUMA nodes),
 * and the notes on options that are accepted but do not act as in fio. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "workload/job/job_cmdprio.h"
#include "workload/job/job_int.h"

#define NODE_DIR	"/sys/devices/system/node"

/* zonemode=zbd: fio's zoned block device mode (write pointers, zone resets). */
static int jx_zbd(struct job_pstate *ps, const struct job_def *d)
{
	const char *f = d->filename;
	struct stat st;

	if (!f || strncmp(f, "/dev/", 5) || stat(f, &st) || !S_ISBLK(st.st_mode))
		return job_perr(ps, "zonemode=zbd needs a zoned block device as filename=%s, "
				"and '%s' is not one", f ? "" : "DEVICE", f ? f : "(none)");
	return job_perr(ps, "zonemode=zbd is not implemented: iobattery does not manage "
			"write pointers or zone resets ('%s'); zonemode=strided is", f);
}

/* The NUMA options act through the kernel's node lists (binding threads to the nodes'
 * CPUs, set_mempolicy); a system without them is told so. */
static int jx_numa(struct job_pstate *ps, const struct job_def *d)
{
	struct stat st;
	const char *which = d->xo.numa_cpu_nodes[0] ? "numa_cpu_nodes" : "numa_mem_policy";

	if (!d->xo.numa_cpu_nodes[0] && !d->xo.numa_mem_policy[0])
		return 0;
#ifdef __linux__
	if (!stat(NODE_DIR, &st) && S_ISDIR(st.st_mode))
		return 0;
#else
	(void)st;
#endif
	return job_perr(ps, "%s needs NUMA nodes, and this system lists none (%s)", which,
			NODE_DIR);
}

/* wait_for=NAME: an earlier job of the same file. The job then starts after every job
 * before it (as stonewall), which includes the one named. */
static int jx_wait_for(struct job_pstate *ps, struct job_def *d)
{
	size_t i;

	if (!d->xo.wait_for[0])
		return 0;
	for (i = 0; i < ps->out->njobs; i++)
		if (ps->out->jobs[i].name && !strcmp(ps->out->jobs[i].name, d->xo.wait_for)) {
			d->stonewall = true;
			return 0;
		}
	return job_perr(ps, "wait_for=%s: no job before this one is called '%s'",
			d->xo.wait_for, d->xo.wait_for);
}

int job_xopts_finish(struct job_pstate *ps, struct job_def *d)
{
	struct job_xopts *x = &d->xo;

	if (x->zonemode == JOB_ZONE_ZBD)
		return jx_zbd(ps, d);
	if (x->zonemode == JOB_ZONE_STRIDED) {
		if (!x->zonesize)
			x->zonemode = JOB_ZONE_NONE;	/* fio: no zones without a size */
		else if (!x->zonerange)
			x->zonerange = x->zonesize;
		if (x->zonesize && x->zonerange < x->zonesize)
			return job_perr(ps, "zonerange=%llu is smaller than zonesize=%llu",
					(unsigned long long)x->zonerange,
					(unsigned long long)x->zonesize);
	}
	if (x->iometa == JOB_IOM_FTRUNCATE && (job_rw_reads(d->rw) || job_rw_trims(d->rw)))
		return job_perr(ps, "ioengine=ftruncate truncates on writes only (fio fails its "
				"reads and trims): rw=%s", job_rw_name(d->rw));
	if (x->fileop && d->filename)
		return job_perr(ps, "ioengine=%s works on the job's own files (nrfiles, in the "
				"scratch directory): filename= is not allowed with it",
				d->engine_name);
	if (jx_numa(ps, d) || jx_wait_for(ps, d))
		return -EINVAL;
	if (x->compress_pct && x->npattern)
		job_pwarn(ps, "buffer_pattern and buffer_compress_percentage: the pattern fills "
			  "the compressible part");
	if (x->latency_target)
		job_pwarn(ps, "latency_target: iobattery runs at iodepth=%u and reports the "
			  "latency; it does not search for the depth that meets the target",
			  d->iodepth);
	if (job_xopt_set(d, "flow") && x->flow)
		job_pwarn(ps, "flow=%d: the jobs run at their own pace (fio's flow weights are "
			  "not enforced)", x->flow);
	if (x->verify_backlog && d->verify)
		job_pwarn(ps, "verify_backlog=%llu: iobattery reads the blocks back after the "
			  "write steps, not every %llu blocks",
			  (unsigned long long)x->verify_backlog,
			  (unsigned long long)x->verify_backlog);
	if (x->ignore_error[0])
		job_pwarn(ps, "ignore_error: every error of the kinds continue_on_error names is "
			  "passed over, not only those listed");
	if (job_cmdprio_on(&x->cmdprio) && d->engine && !(d->engine->flags & ENGINE_F_ASYNC))
		job_pwarn(ps, "cmdprio*: ioengine=%s sets no priority per request (fio takes "
			  "these options with libaio and io_uring): not applied", d->engine->name);
	if (x->ratemin[0])
		job_pwarn(ps, "ratemin: the rate is reported, the job is not failed below it");
	return 0;
}
