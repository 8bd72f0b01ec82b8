/* workload.h - what the workloads offer to the subcommands and to the quick battery.
 * A workload function runs its phases through runner.h and appends one row per phase to
 * rc->run; it returns 0, or -errno when a phase failed (the row says why) or -EINTR when a
 * stop signal ended it. It never exits and prints nothing but progress. */
#ifndef IOB_WORKLOAD_WORKLOAD_H
#define IOB_WORKLOAD_WORKLOAD_H

struct runner;

/* Quick-battery steps (cmd/run.c lists them in order): each runs a small, fast version of
 * the workload inside dir, a scratch directory of the caller's, and removes what it made. */
int dd_quick(struct runner *rc, const char *dir);
int cp_quick(struct runner *rc, const char *dir);
/* Bonnie++ set at -s 16 -n 1 (per-char 1 MiB, 2048 seeks). */
int bonnie_quick(struct runner *rc, const char *dir);
/* A small PostMark run (1,000 files, 5,000 transactions) in a scratch directory of its own
 * inside dir. */
int postmark_quick(struct runner *rc, const char *dir);
/* The seeds' SQL script on SQLite with 20,000 rows (db_script.c). */
int db_quick(struct runner *rc, const char *dir);

#endif
