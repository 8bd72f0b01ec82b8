/* progress.h - one-line progress with rate and ETA on stderr, drawn only when stdout and
 * stderr are terminals, not --quiet, and the phase has run for over a second.
 * One progress per phase, ticked from one thread; cheap to tick (one compare). */
#ifndef IOB_CORE_PROGRESS_H
#define IOB_CORE_PROGRESS_H

#include <stdint.h>

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

#endif
