/* battery_deadline.c - the budget as one object (battery.h): how many passes share it,
 * when it ends with the one tolerance for "within budget", and what is left of it. The
 * planner, the job and the passes ask it instead of each computing its own. */
#include <stdint.h>

#include "workload/battery/battery.h"

unsigned battery_passes(const struct battery_want *w)
{
	return (w->repeats ? w->repeats : 1) * (w->configs ? w->configs : 1);
}

void battery_deadline_init(struct battery_deadline *d, uint64_t t0_ns, uint64_t budget_ns,
			   const struct battery_want *w)
{
	d->t0_ns = t0_ns;
	d->budget_ns = budget_ns;
	d->passes = w ? battery_passes(w) : 1;
}

uint64_t battery_deadline_end(const struct battery_deadline *d)
{
	/* the clock's room: a hundredth of the budget and a quarter of a second, so that
	 * a step planned to end on the budget is not refused for its rounding */
	return d->budget_ns ? d->t0_ns + d->budget_ns + d->budget_ns / 100 + 250000000u : 0;
}

uint64_t battery_deadline_left(const struct battery_deadline *d, uint64_t now_ns)
{
	uint64_t end = d->t0_ns + d->budget_ns;

	return d->budget_ns && end > now_ns ? end - now_ns : 0;
}

int battery_deadline_fits(const struct battery_deadline *d, uint64_t now_ns, uint64_t need_ns)
{
	return !d->budget_ns || now_ns + need_ns <= battery_deadline_end(d);
}
