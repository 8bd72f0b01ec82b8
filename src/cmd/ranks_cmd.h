/* ranks_cmd.h - what the workload driver (cmd/workload_cmd.c) does for a run of several
 * ranks (mpirun; comm/comm.h): the multi-rank options, the gates at its own steps
 * (validation, setup), the merge after the last phase, and who writes (rank 0 only). In
 * a world of one every call here is a no-op or the identity. Main thread only. */
#ifndef IOB_CMD_RANKS_CMD_H
#define IOB_CMD_RANKS_CMD_H

#include <stdio.h>

struct common_opts;
struct run;
struct runner;
struct workload;

/* Take --stonewall SECONDS (or =SECONDS), --wearout, --shared-file and --shared-dir out of
 * argv[1..*argc-1] (before "--") into co, moving the rest down; refuse what w does not
 * honour. Returns 0 or EXIT_USAGE after printing why. */
int ranks_cmd_args(const struct workload *w, int *argc, char **argv, struct common_opts *co);
/* The --help lines of the options w honours (nothing when none). */
void ranks_cmd_help(FILE *f, const struct workload *w);
/* After a multi-rank run that failed or broke (a rank killed, a link cut): rank 0
 * removes from target (when it is a directory) the scratch directories that ranks of
 * this machine left when they died (scratch_sweep); the others' hosts do it at their
 * next run. Nothing in a world of one, or after a run that succeeded. */
void ranks_cmd_sweep(const char *target);
/* Every rank's outcome of one step (validation, setup): returns status when every rank
 * agreed it was 0, else this rank's status or, when another rank failed, fail_status. */
int ranks_cmd_agree(int status, int fail_status);
/* Copy the options into the runner and record them in the run's options. 0 or -ENOMEM. */
int ranks_cmd_prepare(struct runner *rc, const struct common_opts *co);
/* After the last repeat and the teardown: the final gate, the merge of every row, the
 * run's rank table and notes (a rank on another file system, who failed). Returns 1 on
 * the rank that writes the result (rank 0, or a world of one), else 0. */
int ranks_cmd_finish(struct runner *rc);
/* The exit status after a multi-rank stop: 1 when another rank failed (not 130, which
 * a signal gives), else status. */
int ranks_cmd_status(int status);

#endif
