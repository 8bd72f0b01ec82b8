/* cmd.h - subcommand handlers. Each takes the subcommand's own argc/argv (argv[0] is the
 * subcommand name) and returns the process exit status (0, 1, 2 or 130).
 * The commands over results have a handler each (src/cmd/NAME.c, one line in
 * src/main.c's table); every workload, and `run` (the battery's small form, cmd/run.c),
 * goes through workload_cmd and is added to the workload table instead
 * (workload/workload.h says how). */
#ifndef IOB_CMD_CMD_H
#define IOB_CMD_CMD_H

struct workload;
struct workload_ctx;

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_verify(int argc, char **argv);

/* The command of workload w (cmd/workload_cmd.c): its options and the common ones (or its
 * own parser), --help, validation, then one measurement, or its session. Returns the exit
 * status. Not thread-safe (signals, stdout). */
int workload_cmd(const struct workload *w, int argc, char **argv);
/* One measurement of x's workload with x's settings as they are now: a new run with its
 * metadata, setup, the --repeat repeats, teardown, the failure report, the inconsistency
 * flags, the output (the workload's emit, else common_write), the results store unless
 * --no-store. A run without rows is not written. Returns the exit status (0, 1, 130, or
 * what setup returned). For workloads whose session measures several times. */
int workload_cmd_measure(struct workload_ctx *x);

#endif
