/* battery_fit.c - the file-system matrix checked before anything is made: no image, no
 * mkfs, no wipe of a --destroy-data-on device until the battery is known to hold a step
 * in the room and the budget given. Only bounds that hold whatever the device's speed
 * decide here (the rates are the probe's, measured on the first file system made), so a
 * refusal is certain, never a guess:
 *  - no file system is larger than its device or image, so the planner's own rule with
 *    the whole size as free space (a hand-sized battery), or the probe's files (a planned
 *    one: the probe writes BATTERY_PROBE_WRITE bytes in the first file system), bound the
 *    room from above;
 *  - every pass of a planned battery holds one figure planned to last BATTERY_ROW_NS
 *    (twice that across file systems) at least, the probe besides. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "workload/battery/battery_int.h"

/* The first step the hand-sized plan p skipped for a reason other than --steps, as
 * "NAME: WHY" into buf ("" when none). */
static void first_reason(const struct battery_plan *p, char *buf, size_t len)
{
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < BSTEP_N; i++) {
		const char *why = p->s[i].why;

		if (p->s[i].run || strstr(why, "not in --steps"))
			continue;
		if (!strncmp(why, "skipped: ", 9))
			why += 9;
		snprintf(buf, len, " (%s: %s)", battery_step_name((enum battery_step)i), why);
		return;
	}
}

static int hand_fit(const struct battery_opts *o, const struct battery_want *w, char *why,
		    size_t len)
{
	struct battery_probe pr;
	struct battery_env e;
	struct battery_plan p;
	char a[32], b[32], r[300];

	memset(&e, 0, sizeof(e));
	memset(&pr, 0, sizeof(pr));
	/* the most the file system can give: all of it free, O_DIRECT and drops working */
	e.free_bytes = o->fs_size;
	e.has_direct = e.can_drop = 1;
	if (battery_plan_make(&e, &pr, w, &p) != 0)
		return 0;
	first_reason(&p, r, sizeof(r));
	snprintf(why, len, "a file system of %s holds no step of --size %s; its files and "
		 "the 5%% and 64 MiB kept free need more room%s",
		 units_fmt_bytes(a, sizeof(a), (double)o->fs_size),
		 units_fmt_bytes(b, sizeof(b), (double)o->size), r);
	return -ENOSPC;
}

int battery_fit(const struct battery_opts *o, char *why, size_t len)
{
	struct battery_want w;
	uint64_t row_ns, least;
	char a[32], b[32];
	unsigned passes;

	if (!o->nfs)
		return 0;
	memset(&w, 0, sizeof(w));
	w.budget_ns = o->budget_ns;
	w.size = o->size;
	w.repeats = o->repeats ? o->repeats : 1;
	w.configs = o->nfs;
	w.direct = o->direct;
	w.pg_local = o->pg_local;
	w.steps = o->steps;
	w.margin = o->nfs > 1 ? 2 : 1;	/* as battery_job_start plans it */
	/* a device whose size could not be read (0): only the budget decides here */
	if (o->size && o->fs_size)
		return hand_fit(o, &w, why, len);
	if (o->size)
		return 0;
	if (o->fs_size && o->fs_size <= BATTERY_PROBE_WRITE) {
		snprintf(why, len, "a file system of %s cannot hold the probe of a planned "
			 "battery, which writes %s; give a larger one, or --size to size the "
			 "steps by hand", units_fmt_bytes(a, sizeof(a), (double)o->fs_size),
			 units_fmt_bytes(b, sizeof(b), (double)BATTERY_PROBE_WRITE));
		return -ENOSPC;
	}
	passes = battery_passes(&w);
	row_ns = BATTERY_ROW_NS * (uint64_t)w.margin;
	least = (uint64_t)passes * row_ns;
	if (o->budget_ns <= least) {
		snprintf(why, len, "%u pass%s (file systems x repeats) of one figure of %.0f s "
			 "at least need more than %.0f s, the probe and mkfs besides", passes,
			 passes == 1 ? "" : "es", (double)row_ns / 1e9, (double)least / 1e9);
		return -ETIME;
	}
	return 0;
}
