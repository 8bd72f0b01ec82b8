/* battery_int.h - what the battery's files share (battery_probe.c, battery_steps.c,
 * battery_pass.c); not for other modules. */
#ifndef IOB_WORKLOAD_BATTERY_INT_H
#define IOB_WORKLOAD_BATTERY_INT_H

#include "workload/battery/battery.h"

struct runner;
struct run;

#define BATTERY_TSTFILE		"tstfile"	/* the seeds' names */
#define BATTERY_TSTFILE2	"tstfile2"

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

/* battery_ranks.c: the battery across ranks (mpirun; in a world of one each is the
 * battery's own step or the identity). Every rank calls each at the same point.
 * The probe of dir into j->env and j->probe (battery_probe): rank 0 measures the rates
 * alone, every rank its facts; then every rank has rank 0's figures with the least free
 * space and memory, O_DIRECT and cache drops only where every rank has them, the most
 * RAM. 0, -EINTR, or the -errno of the probe that failed (of any rank). */
int battery_ranks_probe(const struct runner *rc, const char *dir, struct battery_job *j,
			int full);
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
