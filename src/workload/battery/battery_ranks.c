/* battery_ranks.c - the battery across ranks (mpirun): every rank runs the same steps in
 * the same order with the same sizes, each in its own scratch directory, so that the
 * phases' gates pair up. Rank 0 probes alone (its phases pass no gate meanwhile), plans,
 * re-plans after each step and takes the budget's decisions; the other ranks receive
 * them. The sizes fit every rank: the free space the plan sees is the least share of
 * any rank, ranks whose files go to one file system sharing its free space (two ranks
 * on one disk each get half of it), the memory likewise per host; the RAM the reads must
 * outgrow is the most of any rank's. In a world of one every call is the battery's own. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "fs/scratch.h"
#include "runner/ranks.h"
#include "runner/runner.h"
#include "workload/battery/battery_int.h"

/* A type of file system that several hosts mount at once: a network or cluster one. */
static int hosts_share(const char *type)
{
	static const char *const shared[] = {
		"nfs", "cifs", "smb", "ceph", "fuse", "9p", "glusterfs", "lustre", "gpfs",
		"beegfs", "afs", "ocfs2", "gfs2", "orangefs", "pvfs2", "panfs", "wekafs",
		"virtiofs",
	};
	size_t i;

	if (!type[0])
		return 1;	/* unknown: it may be */
	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		if (!strncmp(type, shared[i], strlen(shared[i])))
			return 1;
	return 0;
}

int battery_room_shared(const struct battery_room *a, const struct battery_room *b)
{
	if (!strcmp(a->host, b->host))
		return a->dev == b->dev;
	return !strcmp(a->fs_type, b->fs_type) && hosts_share(a->fs_type) &&
	       a->fs_bytes == b->fs_bytes;
}

void battery_room_least(const struct battery_room *all, unsigned n, struct battery_env *e)
{
	uint64_t f = UINT64_MAX, m = UINT64_MAX;
	unsigned r, s;

	e->fs_ranks = 1;
	for (r = 0; r < n; r++) {
		unsigned nfs = 0, nhost = 0;

		for (s = 0; s < n; s++) {
			nfs += (unsigned)battery_room_shared(&all[r], &all[s]);
			nhost += !strcmp(all[r].host, all[s].host);
		}
		if (nfs < 1)
			nfs = 1;
		if (nhost < 1)
			nhost = 1;
		if (all[r].free_bytes / nfs < f || (all[r].free_bytes / nfs == f &&
						    nfs > e->fs_ranks)) {
			f = all[r].free_bytes / nfs;
			e->fs_ranks = nfs;
		}
		if (all[r].mem_avail && all[r].mem_avail / nhost < m)
			m = all[r].mem_avail / nhost;
	}
	e->free_bytes = n ? f : 0;
	e->mem_avail = m == UINT64_MAX ? 0 : m;
}

/* This rank's room in dir, from its facts in e. */
static void room_of(struct battery_room *k, const char *dir, const struct battery_env *e)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->host, sizeof(k->host), "%s", comm_host());
	snprintf(k->fs_type, sizeof(k->fs_type), "%s", e->fs_type);
	(void)space_fs_id(dir, &k->dev, &k->fs_bytes);	/* 0, 0: unknown */
	k->free_bytes = e->free_bytes;
	k->mem_avail = e->mem_avail;
}

/* Every rank's facts into rank 0's env: the least room (battery_room_least), O_DIRECT
 * and dropping where every rank has them; the most RAM and cache; a memory file system
 * anywhere. 0 or -errno. */
static int env_reduce(struct battery_env *e, const char *dir)
{
	struct battery_room mine, *all = NULL;
	uint64_t lo[2], hi[3];
	int r;

	if (comm_rank() == 0 && !(all = calloc(comm_size(), sizeof(*all))))
		comm_abort(1);	/* the others wait in the gather */
	room_of(&mine, dir, e);
	r = comm_gather(&mine, sizeof(mine), all);
	if (r == 0 && comm_rank() == 0)
		battery_room_least(all, comm_size(), e);
	free(all);
	lo[0] = (uint64_t)e->has_direct;
	lo[1] = (uint64_t)e->can_drop;
	hi[0] = e->ram;
	hi[1] = e->cache_bytes;
	hi[2] = (uint64_t)e->memory_fs;
	if (r < 0 || comm_allreduce_u64(lo, 2, COMM_MIN) < 0 ||
	    comm_allreduce_u64(hi, 3, COMM_MAX) < 0 || comm_bcast(e, sizeof(*e)) < 0)
		return -EPIPE;
	e->has_direct = (int)lo[0];
	e->can_drop = (int)lo[1];
	e->ram = hi[0];
	e->cache_bytes = hi[1];
	e->memory_fs = (int)hi[2];
	return 0;
}

int battery_ranks_probe(const struct runner *rc, const char *dir, struct battery_job *j,
			int full)
{
	struct runner solo = *rc;
	uint64_t avail = 0;
	int r;

	if (!comm_multi())
		return battery_probe(rc, dir, &j->env, &j->probe, full);
	/* rank 0 measures the rates alone; every rank learns its own facts */
	solo.solo = 1;
	r = battery_probe(&solo, dir, &j->env, &j->probe, full && comm_rank() == 0);
	r = ranks_gate(r, r ? "the battery's probe failed" : NULL);
	if (r < 0)
		return r;
	if (full && comm_rank() != 0) {
		/* its free space without rank 0's probe files, which may have shared it */
		(void)space_check(dir, 0, &avail);
		j->env.free_bytes = avail;
	}
	r = env_reduce(&j->env, dir);
	if (r == 0 && comm_bcast(&j->probe, sizeof(j->probe)) < 0)
		r = -EPIPE;
	return r;
}

int battery_ranks_plan(struct battery_job *j, int err)
{
	int r;

	if (!comm_multi())
		return err;
	r = ranks_share(&j->plan, sizeof(j->plan), err, err ? "the battery has no plan" : NULL);
	if (r == 0 && comm_bcast(&j->want, sizeof(j->want)) < 0)
		r = -EPIPE;
	return r;
}

void battery_ranks_adapted(struct battery_job *j)
{
	if (!comm_multi())
		return;
	/* the world stopping (a rank failed), each rank keeps its own: no step runs on */
	if (ranks_share(&j->plan, sizeof(j->plan), 0, NULL) < 0 ||
	    comm_bcast(&j->rates, sizeof(j->rates)) < 0 ||
	    comm_bcast(&j->done, sizeof(j->done)) < 0 ||
	    comm_bcast(j->done_ns, sizeof(j->done_ns)) < 0)
		return;
}

int battery_ranks_decide(int yes)
{
	int v = yes;

	if (comm_multi() && ranks_share(&v, sizeof(v), 0, NULL) < 0)
		return yes;
	return v;
}
