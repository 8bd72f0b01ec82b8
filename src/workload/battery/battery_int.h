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

#endif
