/* ranks_scratch.c - scratch directories of a multi-rank run: one per rank (the default),
 * or with --shared-dir one that rank 0 makes and every rank works in. */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "comm/comm.h"
#include "fs/scratch.h"
#include "runner/ranks.h"
#include "runner/ranks_int.h"

int ranks_scratch_create(const char *parent, int shared, struct scratch **out)
{
	char path[PATH_MAX];
	struct comm_fault f;
	int e = 0;

	if (!shared || !comm_multi())
		return scratch_create(parent, out);
	memset(path, 0, sizeof(path));
	if (comm_rank() == 0 && (e = scratch_create(parent, out)) == 0)
		strncpy(path, scratch_dir(*out), sizeof(path) - 1);
	if (comm_gate(e, e ? "cannot create the shared directory" : NULL, &f, NULL, NULL) < 0) {
		ranks_stop(&f);
		return e ? e : f.err;
	}
	if (comm_bcast(path, sizeof(path)) < 0)
		return -EPIPE;
	if (comm_rank() == 0)
		return 0;
	/* the other ranks see it where the parent is on a file system they share */
	return scratch_adopt(path, out);
}

int ranks_scratch_destroy(struct scratch *sc, int shared)
{
	if (shared && comm_multi())
		(void)comm_gate(0, NULL, NULL, NULL, NULL);	/* every rank is done in it */
	return scratch_destroy(sc);
}
