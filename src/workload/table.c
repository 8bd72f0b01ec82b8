/* table.c - the workload table. Each descriptor is defined beside its command-line face
 * in src/workload/NAME/NAME_cmd.c, which checks the user's paths before anything runs;
 * the order is the seeds' (and --help's): dd, cp, bonnie, postmark, iozone, db, fsync,
 * job; then the battery, which composes them. */
#include <string.h>

#include "workload/workload.h"

extern const struct workload workload_dd, workload_cp, workload_bonnie, workload_postmark,
	workload_db, workload_fsync, workload_iozone, workload_job, workload_sustained,
	workload_battery;

const struct workload *const workload_table[] = {
	&workload_dd,
	&workload_cp,
	&workload_bonnie,
	&workload_postmark,
	&workload_iozone,
	&workload_db,
	&workload_fsync,
	&workload_job,
	&workload_sustained,
	&workload_battery,
	NULL,
};

const struct workload *workload_find(const char *name)
{
	const struct workload *const *w;

	for (w = workload_table; *w; w++)
		if (!strcmp((*w)->name, name))
			return *w;
	return NULL;
}
