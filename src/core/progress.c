/* progress.c - the one-line progress display on stderr. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/progress.h"
#include "core/clock.h"

#define PROGRESS_FIRST_NS	1000000000ull	/* nothing for phases under a second */
#define PROGRESS_EVERY_NS	250000000ull

static int progress_held;	/* progress_hold: read and written with atomics */

void progress_hold(int on)
{
	__atomic_store_n(&progress_held, on, __ATOMIC_RELAXED);
}

/* "  p99 3.1ms  disk 97%" from the live figures, or "". */
static void progress_live_text(const struct progress_live *l, char *buf, size_t len)
{
	uint32_t have = l ? __atomic_load_n(&l->have, __ATOMIC_RELAXED) : 0;
	size_t n = 0;

	buf[0] = '\0';
	if (have & PROGRESS_LIVE_P99) {
		double ns = (double)__atomic_load_n(&l->p99_ns, __ATOMIC_RELAXED);

		if (ns < 1e4)
			n = (size_t)snprintf(buf, len, "  p99 %.1fus", ns / 1e3);
		else if (ns < 1e7)
			n = (size_t)snprintf(buf, len, "  p99 %.1fms", ns / 1e6);
		else if (ns < 1e9)
			n = (size_t)snprintf(buf, len, "  p99 %.0fms", ns / 1e6);
		else
			n = (size_t)snprintf(buf, len, "  p99 %.1fs", ns / 1e9);
	}
	if ((have & PROGRESS_LIVE_UTIL) && n < len)
		snprintf(buf + n, len - n, "  disk %.0f%%",
			 (double)__atomic_load_n(&l->util_x10, __ATOMIC_RELAXED) / 10.0);
}

void progress_init(struct progress *p, int want, const char *label, const char *unit,
		   uint64_t total)
{
	memset(p, 0, sizeof(*p));
	p->enabled = want && isatty(1) && isatty(2);
	p->label = label ? label : "";
	p->unit = unit ? unit : "B";
	p->total = total;
	p->t0 = clock_ns();
	p->next_ns = p->enabled ? p->t0 + PROGRESS_FIRST_NS : UINT64_MAX;
}

/* "  | battery 3/9, all in 1:32" from the job's plan. */
static void progress_total_draw(const struct progress_total *t, uint64_t now_ns)
{
	unsigned long left = 0;

	if (t->end_ns > now_ns)
		left = (unsigned long)((t->end_ns - now_ns) / 1000000000u);

	fprintf(stderr, "| %s, all done in %lu:%02lu   ", t->what, left / 60, left % 60);
}

void progress_draw(struct progress *p, uint64_t done, uint64_t now_ns)
{
	if (p->hook)
		p->hook(p, done, now_ns);
	else
		progress_show(p, done, now_ns);
}

void progress_set_hook(struct progress *p, void (*hook)(struct progress *, uint64_t, uint64_t),
		       void *arg, uint64_t first_ns)
{
	p->hook = hook;
	p->hook_arg = arg;
	p->next_ns = first_ns;
}

void progress_show(struct progress *p, uint64_t done, uint64_t now_ns)
{
	/* A copy counts the bytes of its reads and of its writes: show the bytes copied. */
	if (p->per_unit > 1)
		done /= p->per_unit;

	char rate[32], pct[16] = "", eta[48] = "", live[48];
	double secs, r;
	int bytes;

	if (!p->enabled) {
		if (!p->hook)
			p->next_ns = UINT64_MAX;
		return;
	}
	if (__atomic_load_n(&progress_held, __ATOMIC_RELAXED)) {
		p->next_ns = now_ns + PROGRESS_EVERY_NS;
		return;
	}
	secs = now_ns > p->t0 ? (double)(now_ns - p->t0) / 1e9 : 0;
	r = secs > 0 ? (double)done / secs : 0;
	bytes = strcmp(p->unit, "B") == 0;
	if (bytes)
		snprintf(rate, sizeof(rate), "%.1f MB/s", r / 1e6);
	else
		snprintf(rate, sizeof(rate), "%.0f %s/s", r, p->unit);
	if (p->total) {
		unsigned long left;

		snprintf(pct, sizeof(pct), "  %.0f%%",
			 done >= p->total ? 100.0 : (double)done * 100.0 / (double)p->total);
		if (r > 0 && done < p->total) {
			left = (unsigned long)((double)(p->total - done) / r + 0.5);
			if (left >= 3600)
				snprintf(eta, sizeof(eta), "  ETA %lu:%02lu:%02lu", left / 3600,
					 left / 60 % 60, left % 60);
			else
				snprintf(eta, sizeof(eta), "  ETA %lu:%02lu", left / 60, left % 60);
		}
	}
	progress_live_text(p->live, live, sizeof(live));
	fprintf(stderr, "\r%-12s%s  %s%s%s%s   ", p->label, pct, rate, live, eta, p->suffix);
	if (p->job)
		progress_total_draw(p->job, now_ns);
	fflush(stderr);
	p->drawn = 1;
	p->next_ns = now_ns + PROGRESS_EVERY_NS;
}

void progress_done(struct progress *p)
{
	if (p->drawn && p->job)
		fprintf(stderr, "\r%140s", "");
	if (p->drawn) {
		fprintf(stderr, "\r%96s\r", "");
		fflush(stderr);
		p->drawn = 0;
	}
	p->next_ns = UINT64_MAX;
}
