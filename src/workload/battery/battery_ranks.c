/* battery_ranks.c - the battery across ranks (mpirun): every rank runs the same steps in
 * the same order with the same sizes, each in its own scratch directory, so that the
 * phases' gates pair up. Rank 0 probes alone (its phases pass no gate meanwhile), plans,
 * re-plans after each step and takes the budget's decisions; the other ranks receive
 * them. The sizes fit every rank: the free space and the memory the plan sees are the
 * least of any rank's, the RAM the reads must outgrow the most. In a world of one every
 * call is the battery's own. */
#include <errno.h>
#include <stdint.h>

#include "comm/comm.h"
#include "runner/ranks.h"
#include "runner/runner.h"
#include "workload/battery/battery_int.h"

/* Every rank's facts into rank 0's env: the least free space, memory, O_DIRECT and
 * dropping; the most RAM and cache; a memory file system anywhere. 0 or -errno. */
static int env_reduce(struct battery_env *e)
{
	uint64_t lo[4], hi[3];

	lo[0] = e->free_bytes;
	lo[1] = e->mem_avail ? e->mem_avail : UINT64_MAX;	/* 0: unknown */
	lo[2] = (uint64_t)e->has_direct;
	lo[3] = (uint64_t)e->can_drop;
	hi[0] = e->ram;
	hi[1] = e->cache_bytes;
	hi[2] = (uint64_t)e->memory_fs;
	if (comm_allreduce_u64(lo, 4, COMM_MIN) < 0 || comm_allreduce_u64(hi, 3, COMM_MAX) < 0 ||
	    comm_bcast(e, sizeof(*e)) < 0)
		return -EPIPE;
	e->free_bytes = lo[0];
	e->mem_avail = lo[1] == UINT64_MAX ? 0 : lo[1];
	e->has_direct = (int)lo[2];
	e->can_drop = (int)lo[3];
	e->ram = hi[0];
	e->cache_bytes = hi[1];
	e->memory_fs = (int)hi[2];
	return 0;
}

int battery_ranks_probe(const struct runner *rc, const char *dir, struct battery_job *j,
			int full)
{
	struct runner solo = *rc;
	int r;

	if (!comm_multi())
		return battery_probe(rc, dir, &j->env, &j->probe, full);
	/* rank 0 measures the rates alone; every rank learns its own facts */
	solo.solo = 1;
	r = battery_probe(&solo, dir, &j->env, &j->probe, full && comm_rank() == 0);
	r = ranks_gate(r, r ? "the battery's probe failed" : NULL);
	if (r < 0)
		return r;
	r = env_reduce(&j->env);
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
