/* t_battery_fit - the file-system matrix checked before anything is made (battery_fit):
 * what no file system of that size can hold is refused, what one could hold is not. */
#include <errno.h>
#include <string.h>

#include "test.h"
#include "workload/battery/battery_int.h"

#define MIB (1024ull * 1024)
#define SEC 1000000000ull

static struct battery_opts opts(unsigned nfs, uint64_t fs_size, uint64_t size, uint64_t budget)
{
	struct battery_opts o;

	memset(&o, 0, sizeof(o));
	o.nfs = nfs;
	o.fs_size = fs_size;
	o.size = size;
	o.budget_ns = budget;
	o.repeats = 1;
	return o;
}

static void t_fit(void)
{
	struct battery_opts o;
	char why[600];

	/* no matrix: nothing to judge */
	o = opts(0, 0, 0, 10 * SEC);
	CHECK(battery_fit(&o, why, sizeof(why)) == 0);
	/* planned: the probe's 192 MiB do not fit 100 MiB, do fit 1 GiB */
	o = opts(1, 100 * MIB, 0, 600 * SEC);
	CHECK(battery_fit(&o, why, sizeof(why)) == -ENOSPC);
	CHECK(strstr(why, "192 MiB") != NULL);
	o.fs_size = 1024 * MIB;
	CHECK(battery_fit(&o, why, sizeof(why)) == 0);
	/* hand-sized: 256 MiB files in 64 MiB; 4 MiB in 96 MiB fit (iozone at least) */
	o = opts(1, 64 * MIB, 256 * MIB, 600 * SEC);
	CHECK(battery_fit(&o, why, sizeof(why)) == -ENOSPC);
	CHECK(strstr(why, "dd write bs=1k: needs 256 MiB") != NULL);
	o = opts(1, 96 * MIB, 4 * MIB, 600 * SEC);
	CHECK(battery_fit(&o, why, sizeof(why)) == 0);
	/* a device whose size is unknown is not judged by room */
	o = opts(1, 0, 256 * MIB, 600 * SEC);
	CHECK(battery_fit(&o, why, sizeof(why)) == 0);
}

static void t_budget(void)
{
	struct battery_opts o;
	char why[600];

	/* two file systems x two repeats, a figure of 2 s each: 8 s is not enough */
	o = opts(2, 1024 * MIB, 0, 8 * SEC);
	o.repeats = 2;
	CHECK(battery_fit(&o, why, sizeof(why)) == -ETIME);
	CHECK(strstr(why, "4 passes") != NULL);
	o.budget_ns = 9 * SEC;
	CHECK(battery_fit(&o, why, sizeof(why)) == 0);
	/* one file system, a second a figure */
	o = opts(1, 1024 * MIB, 0, 1 * SEC);
	CHECK(battery_fit(&o, why, sizeof(why)) == -ETIME);
	o.budget_ns = 2 * SEC;
	CHECK(battery_fit(&o, why, sizeof(why)) == 0);
}

int main(void)
{
	RUN(t_fit);
	RUN(t_budget);
	return test_done();
}
