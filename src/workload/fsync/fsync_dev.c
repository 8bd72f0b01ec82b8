/* fsync_dev.c - the device counters around one test. An isolated helper: when the phase
 * samplers carry the device figures of every phase, the tests read them from there. */
#include <errno.h>

#include "workload/fsync/fsync.h"

int fsync_dev_counters(struct diskstats_set *set, int idx, struct diskstats_counters *c)
{
	struct diskstats_snap snap;
	int n;

	if (idx < 0 || (unsigned)idx >= set->ndev)
		return -ENODEV;
	n = diskstats_read(set, &snap);
	if (n < 0)
		return n;
	*c = snap.c[idx];
	return c->nfields ? 0 : -ENODEV;
}
