/* bonnie_int.h - helpers shared by the bonnie_*.c files; not for other modules. */
#ifndef IOB_WORKLOAD_BONNIE_INT_H
#define IOB_WORKLOAD_BONNIE_INT_H

#include <stdint.h>
#include "workload/bonnie/bonnie.h"

struct row;
struct runner;
struct worker;

#define BONNIE_MAX_FILES 4096u		/* 1 GiB files per data set: 4 TiB */

/* After phase_end: compute the Bonnie++ rate of test t from the row's counters, set the
 * params (char_method, chunk, size_mb, ...) and per-copy metrics, and turn the phase's
 * return r into the row's status. Returns r (0, -EINTR or -errno). */
int bonnie_row_finish(struct row *row, const struct bonnie_cfg *c, int t, int r);
/* Run one phase of test t on nw workers (nw a multiple of c->copies; the workers of
 * copy k are k*nw/copies ...), make its row (*out, owned by the run; NULL on ENOMEM) with
 * per-copy metrics when copies > 1, and finish it as bonnie_row_finish. */
int bonnie_phase(struct runner *rc, const struct bonnie_cfg *c, int t, unsigned nw,
		 const char *unit, uint64_t expect, int (*fn)(void *, unsigned, struct worker *),
		 void *arg, struct row **out);
/* Record the residency measured before a read phase and the cache verdict. */
void bonnie_row_cache(struct row *row, const struct bonnie_cfg *c, double pct, int dropped);

#endif
