/* battery_int.h - what the battery's files share (battery_probe.c, battery_steps.c,
 * battery_pass.c); not for other modules. */
#ifndef IOB_WORKLOAD_BATTERY_INT_H
#define IOB_WORKLOAD_BATTERY_INT_H

#include "workload/battery/battery.h"

struct runner;
struct run;

#define BATTERY_TSTFILE		"tstfile"	/* the seeds' names */
#define BATTERY_TSTFILE2	"tstfile2"
/* What the probe's dd writes (battery_probe.c): a planned battery needs that much room in
 * the first file system at least. */
#define BATTERY_PROBE_WRITE	(192ull << 20)

/* Run step s of plan p once inside dir (a scratch directory of the caller's), appending
 * its rows to rc->run and removing what it made (the dd file stays from dd write bs=1M
 * until cp has copied it). Returns 0, -EINTR after a stop signal, or the -errno of a
 * failed phase (its row says why). */
int battery_step_run(struct runner *rc, const struct battery_plan *p, enum battery_step s,
		     const char *dir);
/* battery_jobstep.c: the database pattern of plan p in dir (a fio job of four jobs run by
 * the job workload), its rows appended to rc->run as the header there says, its file
 * removed. Returns 0, -EINTR, or the -errno of what failed (a row says why). */
int battery_job_step(struct runner *rc, const struct battery_plan *p, const char *dir);
/* battery_job.c: the plan of j into run's options (a line per step, the probe's rates),
 * again after each revision. */
void battery_job_record(struct run *run, const struct battery_job *j);
/* Add line to run's option key, after what it holds ("; " between). */
void battery_job_note(struct run *run, const char *key, const char *line);
/* Remove dir/name if it is there (a file a step kept for the next one). 0 or -errno. */
int battery_remove(const char *dir, const char *name);

/* battery_fit.c: before anything is made, can the file-system matrix of o (o->nfs > 0;
 * o->fs_size the images' or the device's size; o->size, budget_ns, repeats and steps
 * checked) hold a step? Only bounds that hold at any device speed decide: the whole size
 * as free space for a hand-sized battery (the planner's own rule), the probe's files for
 * a planned one, and a pass of one figure each within the budget. 0 (also without
 * o->nfs), or -ENOSPC (the room) or -ETIME (the budget) with the reason in why; an
 * fs_size of 0 (a device whose size could not be read) is not judged. Pure. */
int battery_fit(const struct battery_opts *o, char *why, size_t len);

/* battery_ranks.c: the battery across ranks (mpirun; in a world of one each is the
 * battery's own step or the identity). Every rank calls each at the same point.
 * The probe of dir into j->env and j->probe (battery_probe): rank 0 measures the rates
 * alone, every rank its facts (its free space once rank 0's probe files are gone); then
 * every rank has rank 0's figures with the least room of any rank (battery_room_least:
 * ranks that share a file system share its free space, ranks on a host its memory),
 * O_DIRECT and cache drops only where every rank has them, the most RAM. 0, -EINTR, or
 * the -errno of the probe that failed (of any rank). */
int battery_ranks_probe(const struct runner *rc, const char *dir, struct battery_job *j,
			int full);
/* The room one rank's files have: which file system they go to (on which host) and
 * what is free there; battery_ranks_probe gathers one from every rank. */
struct battery_room {
	char host[64];			/* comm_host(), cut to 63 bytes */
	char fs_type[32];		/* battery_env's ("" unknown) */
	uint64_t dev;			/* the target's device number (st_dev) */
	uint64_t fs_bytes;		/* the file system's size (0 unknown) */
	uint64_t free_bytes;		/* free there, for an unprivileged writer */
	uint64_t mem_avail;		/* the host's memory available (0 unknown) */
};
/* The least room of n ranks' all[] into e: free_bytes the least, over the ranks, of a
 * rank's free space divided among the ranks sharing its file system (fs_ranks: how many
 * share the one that gives it), mem_avail the least of a rank's memory divided among
 * the ranks on its host (0 when no rank knows its own). Ranks share a file system on one
 * host when their targets have one device number; on two hosts when it is of a type
 * that hosts share (a network or cluster file system, or an unknown type) and of the
 * same type and size on both: a local file system on each host is its own. Pure. */
void battery_room_least(const struct battery_room *all, unsigned n, struct battery_env *e);
/* 1 when ranks a and b write to one file system by the rule above. Pure. */
int battery_room_shared(const struct battery_room *a, const struct battery_room *b);

/* Rank 0's j->plan and j->want (made there; err its status) to every rank. Returns 0,
 * or a failing rank's status. */
int battery_ranks_plan(struct battery_job *j, int err);
/* After rank 0 re-planned (battery_adapt): its plan, rates and the steps done to every
 * rank. */
void battery_ranks_adapted(struct battery_job *j);
/* Rank 0's yes (a budget's decision: 1 or 0) on every rank; this rank's own when the
 * world is stopping. */
int battery_ranks_decide(int yes);

#endif
