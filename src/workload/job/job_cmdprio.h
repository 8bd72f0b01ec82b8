/* job_cmdprio.h - fio's I/O priorities per request (job_cmdprio.c): cmdprio_percentage,
 * cmdprio_class, cmdprio and cmdprio_bssplit, which fio takes with its libaio and
 * io_uring engines. A request the options pick is issued at their priority (the engine
 * sets it on the request: IOCB_FLAG_IOPRIO, the SQE's ioprio); the others at the
 * thread's (prio, prioclass). Picks draw from the thread's generator. */
#ifndef IOB_WORKLOAD_JOB_CMDPRIO_H
#define IOB_WORKLOAD_JOB_CMDPRIO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "workload/job/job_xopts.h"

struct job_def;
struct job_optdef;
struct job_pstate;

/* The four options (o->name says which): "A[,B]" per reads and writes for the first
 * three; cmdprio_bssplit=BS/PERCENT[/CLASS/LEVEL]:...[,...] (a class and level of its
 * own per entry, else cmdprio_class's and cmdprio's). 0 or -EINVAL with the message. */
int job_cmdprio_opt(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		    const char *val);
/* Whether any request gets a priority of its own. */
bool job_cmdprio_on(const struct job_cmdprio *c);
/* The ioprio value for a request of direction dir (0 read, 1 write; trims none) and
 * length len, or 0: the thread's. cmdprio_bssplit: the entries of that size, each its
 * percent of them; else cmdprio_percentage percent of the direction's. */
unsigned job_cmdprio_pick(const struct job_cmdprio *c, unsigned dir, uint64_t len,
			  struct rng *r);

#endif
