/* sustained.h - `iobattery sustained`: sequential writes of one large file until the rate
 * has fallen and stayed down (a knee: stats/knee.h) or a size or time limit, with the
 * device temperature beside it (observe/devtemp.h). One row, phase "write".
 * docs/methodology.md ("Sustained writes") says what each figure is. */
#ifndef IOB_WORKLOAD_SUSTAINED_SUSTAINED_H
#define IOB_WORKLOAD_SUSTAINED_SUSTAINED_H

#include <stdint.h>

struct runner;

struct sustained_cfg {
	uint64_t size;			/* the most to write (bytes) */
	uint64_t bs;			/* bytes per write */
	double time_s;			/* the most to write for (seconds) */
	double step_s;			/* the knee's interval */
	double drop_pct;		/* the fall a knee needs, percent of the burst rate */
	unsigned hold;			/* intervals the rate must stay down */
	int buffered;			/* no O_DIRECT */
	int no_stop;			/* write to the limit even after a knee */
};

/* Write dir/sustained.dat (dir: a scratch directory of ours) and add the row to rc->run.
 * 0, -EINTR (stop signal) or -errno (the row says what failed). */
int sustained_run(struct runner *rc, const struct sustained_cfg *c, const char *dir);

#endif
