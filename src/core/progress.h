/* progress.h - one-line progress with rate and ETA on stderr, drawn only when stdout and
 * stderr are terminals, not --quiet, and the phase has run for over a second.
 * One progress per phase, ticked from one thread; cheap to tick (one compare). */
#ifndef IOB_CORE_PROGRESS_H
#define IOB_CORE_PROGRESS_H

#include <stdint.h>

/* The job a phase belongs to (the battery's steps): what it is doing, and when its plan
 * says it ends; drawn after the phase's own figures. Owned by the job. */
struct progress_total {
	char what[48];			/* "battery 3/9" */
	uint64_t end_ns;		/* clock_ns() at which the plan ends */
};

/* Figures another thread (the phase's sampler) keeps up to date for the line, written
 * and read with relaxed atomic accesses: the latest interval's device %util and p99. */
struct progress_live {
	uint64_t util_x10;		/* %util x 10 */
	uint64_t p99_ns;
	uint32_t have;			/* PROGRESS_LIVE_* bits */
};
#define PROGRESS_LIVE_UTIL	1u
#define PROGRESS_LIVE_P99	2u

struct progress {
	int enabled;
	int drawn;
	const char *label;
	const char *unit;		/* "B" for bytes (drawn as MB/s), else e.g. "files" */
	uint64_t total;			/* expected units, 0 when unknown */
	uint64_t t0;
	uint64_t next_ns;		/* next time to draw; UINT64_MAX when disabled */
	unsigned per_unit;		/* ticks per unit shown (2 when reads and writes are
					 * both counted, as in a copy); 0 or 1: one */
	/* Multi-rank runs (runner/ranks.c): the slow path goes to hook, which samples,
	 * tells rank 0 and may draw with progress_show; suffix is drawn after the ETA. */
	void (*hook)(struct progress *p, uint64_t done, uint64_t now_ns);
	void *hook_arg;
	char suffix[48];
	const struct progress_total *job;	/* the job around the phase, or NULL */
	const struct progress_live *live;	/* p99 and disk figures to show, or NULL */
};

/* want: the caller's wish (not --quiet); the terminal test is done here. */
void progress_init(struct progress *p, int want, const char *label, const char *unit,
		   uint64_t total);
/* Slow path of progress_tick. */
void progress_draw(struct progress *p, uint64_t done, uint64_t now_ns);
static inline void progress_tick(struct progress *p, uint64_t done, uint64_t now_ns)
{
	if (now_ns >= p->next_ns)
		progress_draw(p, done, now_ns);
}
/* Draw the line now for done units (the slow path without a hook); does nothing when
 * not enabled. Sets next_ns a quarter second ahead. */
void progress_show(struct progress *p, uint64_t done, uint64_t now_ns);
/* Give the slow path to hook from now on, first called at first_ns, even when nothing
 * is drawn (the hook sets next_ns itself). */
void progress_set_hook(struct progress *p, void (*hook)(struct progress *, uint64_t, uint64_t),
		       void *arg, uint64_t first_ns);
/* Erase the line if one was drawn. */
void progress_done(struct progress *p);
/* Draw nothing while on is 1 (a full-screen live view owns the terminal); any thread. */
void progress_hold(int on);

#endif
