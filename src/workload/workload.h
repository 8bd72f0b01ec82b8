/* workload.h - the workload table: one descriptor per workload, which the command line
 * reads (src/main.c, through the driver cmd/workload_cmd.c). The driver does for every
 * workload what is common: the common options (workload/common_opts.h), --help,
 * validation, the run and its metadata, the repeats, the inconsistency flags, the
 * formats, the results store and the exit status. A descriptor only says what differs;
 * what a hook needs of the driver (measure, write) comes through x->drv, so nothing in
 * src/workload/ includes src/cmd/ (tests/cli/layers.sh).
 *
 * How to add a workload NAME (as fsync and iozone were added), one folder and a few
 * lines elsewhere:
 *  1. src/workload/NAME/NAME.h and its body files: the phases through runner/runner.h
 *     (never an engine or an I/O call directly: tests/cli/no_raw_io.sh), a function that
 *     runs them once (one repeat, one row per phase appended to rc->run).
 *  2. src/workload/NAME/NAME_cmd.c: its config struct, option table (core/opt.h, offsets
 *     into the config), operand parsing and checks, `const struct workload workload_NAME`.
 *  3. src/workload/table.c: its name in the extern list and one line in the table (the
 *     line's place is its line in --help).
 *  4. Its figures: a block of RK_ constants in stats/result_keys.h, its table in
 *     stats/result_keys_wl.c and a line in result_key_tables[] (result_keys.h says how).
 *  5. Its text, if the generic block is not enough: output/text_NAME.c, declared in
 *     output/text_renderers.h, one line in text.c's table (text_renderers.h says how).
 *  6. Docs: README.md's command list, a section of docs/iobattery.1 (tests/cli/docs_match.sh
 *     checks it against --help), its figures in docs/results-schema.md (t_result_keys
 *     checks them), its method in docs/methodology.md; completion/iobattery.bash and
 *     completion/_iobattery.
 *  7. Tests: tests/cli/NAME_*.sh on small data.
 * A battery step is a row of the battery's own step table (workload/battery/battery.h).
 *
 * Hooks run on the main thread, in the order listed; NULL means the default written
 * beside each. A hook that returns -errno has printed why (err.h), except run. */
#ifndef IOB_WORKLOAD_WORKLOAD_H
#define IOB_WORKLOAD_WORKLOAD_H

#include <stddef.h>

#include "core/opt.h"
#include "runner/vhook.h"

struct common_opts;
struct engine;
struct run;
struct row;
struct runner;
struct toolceil;
struct workload;
struct workload_driver;

/* What the driver hands every hook. Owned by the driver; lives for one command. */
struct workload_ctx {
	const struct workload *w;
	void *cfg;			/* the workload's config, cfg_size bytes, zeroed */
	struct common_opts *co;		/* the common options (cmd/common.h) */
	const struct engine *eng;	/* the engine, once common_validate passed */
	const char *target;		/* a path whose environment the run records (file
					 * system, device); set by a hook, default "." */
	int argc;			/* the command's own arguments (argv[0] is NAME) */
	char **argv;
	struct opt_group g[3];		/* the workload's options, the common ones, then
					 * --verify's (WORKLOAD_F_VERIFY) */
	int ng;				/* 0 when the workload parses its own arguments */
	struct vhook_cfg verify;	/* --verify and friends; a parse hook fills it itself */
	const struct workload_driver *drv;	/* what the driver lends the hooks */
};

/* What the driver (cmd/workload_cmd.c) lends a workload's hooks: the parts of a command
 * that measure and write, so that a workload never includes cmd/. Static; set before
 * the first hook. */
struct workload_driver {
	/* One measurement with x's settings as they are now (a session's each command):
	 * cmd.h's workload_cmd_measure. Returns the exit status. */
	int (*measure)(struct workload_ctx *x);
	/* The run in every requested format (cmd/common.h's common_write; flags
	 * COMMON_OWN_REPEATS). 0 or -errno after a message. */
	int (*write)(struct run *run, const struct common_opts *co, unsigned flags);
	/* --series FILE: the interval series as a long CSV table. 0 or -errno. */
	int (*write_series)(const struct run *run, const struct common_opts *co);
};

/* workload flags */
#define WORKLOAD_F_VERIFY	1u	/* it writes: --verify, --verify-after-drop,
					 * --verify-journal and --report-to apply (the driver adds
					 * them; runner/vhook.h says how the workload turns the
					 * hook on) */
/* What a workload does with the multi-rank options (cmd/ranks_cmd.c refuses the rest). */
#define WL_RANKS_SHARED_FILE	(1u << 0)	/* --shared-file: one file, a segment a rank */
#define WL_RANKS_SHARED_DIR	(1u << 1)	/* --shared-dir: one directory for all ranks */
#define WL_RANKS_STONEWALL	(1u << 2)	/* --stonewall (runner/ranks.h) */
#define WL_RANKS_WEAROUT	(1u << 3)	/* --wearout after the wall (runner/ranks.h) */

struct workload {
	const char *name;		/* the command and the rows' workload: "dd" */
	const char *summary;		/* its line in `iobattery --help` */
	const char *synopsis;		/* --help: "usage: iobattery NAME " synopsis "\n" */
	const char *help;		/* --help: then this, then the option lines */
	const struct opt *opts;		/* option table, offsets into cfg; NULL: none */
	size_t cfg_size;		/* bytes of the config the driver allocates */
	unsigned flags;			/* WORKLOAD_F_* */
	unsigned ranks;			/* WL_RANKS_* it honours; 0: none */

	/* Defaults into the zeroed config. NULL: all zero. */
	void (*init)(void *cfg);
	/* Parse argv itself instead of opt_parse with opts and the common table (Bonnie++'s
	 * letters), filling cfg and x->co; its help then lists every option itself.
	 * Returns the number of operands (*ops: a NULL-terminated array to free, or NULL),
	 * -ECANCELED for --help, -EINVAL. */
	int (*parse)(struct workload_ctx *x, int argc, char **argv, char ***ops);
	/* The operands, and checks of what was typed, before common_validate. 0 or -EINVAL.
	 * NULL: operands are refused. */
	int (*operands)(struct workload_ctx *x, char **ops, int n);
	/* Checks after common_validate (x->eng is set): files, space, engine fit. 0 or
	 * -EINVAL; nothing may be created yet. */
	int (*validate)(struct workload_ctx *x);
	/* Drive the measurements itself (PostMark's command language), calling
	 * workload_cmd_measure for each; returns the exit status. NULL: measure once. */
	int (*session)(struct workload_ctx *x, char **ops, int n);

	/* --- one measurement (workload_cmd_measure) --- */
	/* Effective options beyond the option tables into run->options. 0 or -ENOMEM. */
	int (*record)(struct workload_ctx *x, struct run *run);
	/* Before the first repeat: scratch directory, server; may change rc (progress).
	 * Returns 0 or an exit status after printing why (then teardown runs, nothing is
	 * written). */
	int (*setup)(struct workload_ctx *x, struct runner *rc);
	/* Before each repeat but the first (the file the previous one made is ours now).
	 * 0 or -errno, which ends the repeats like a failed run. */
	int (*next_repeat)(struct workload_ctx *x, struct runner *rc);
	/* One repeat: rc->repeat is its index. 0, -EINTR (stop signal) or -errno (the row
	 * says why). Required. */
	int (*run)(struct workload_ctx *x, struct runner *rc);
	/* After the last repeat (also after a failed setup): remove what setup made, add
	 * what the run learnt. 0 or -errno (the exit status becomes 1). */
	int (*teardown)(struct workload_ctx *x, struct run *run);
	/* Several ranks, on rank 0 after their rows are merged: re-derive rows that sum up
	 * other rows (they hold rank 0's own figures until then). NULL: nothing to do. */
	void (*merged)(struct workload_ctx *x, struct run *run);
	/* Before the results are written: say what failed (err from run, status the exit
	 * status so far). NULL: the rows' own error text is all. */
	void (*report)(struct workload_ctx *x, const struct run *run, int err, int status);
	/* Write the run instead of common_write (Bonnie++'s -q, PostMark's report file).
	 * 0 or -errno. The driver stores the run afterwards either way. */
	int (*emit)(struct workload_ctx *x, struct run *run);
	/* The tool's own limit for row w of the measurement just made, before its results
	 * are written (cmd/ceilings.c): w's requests through this workload's own loop with
	 * the null engine at w's settings (threads, depth, block size, pattern), run for
	 * about TOOLCEIL_NS with no output and no store (runner/toolceil.h). Its requests
	 * per second and CPU time per request into *t, what ran in words into words (len
	 * bytes). 1 when measured; 0 when w is not a row it measures, or -errno: then the
	 * runner's own request path with the null engine stands in (toolceil_measure).
	 * NULL: that path for every row. */
	int (*tool_limit)(struct workload_ctx *x, const struct row *w, struct toolceil *t,
			  char *words, size_t len);

	/* Free what init and the hooks allocated in cfg (not cfg itself). */
	void (*done)(void *cfg);
};

/* Every workload, in the order the seeds ran them (= their order in --help);
 * NULL-terminated. src/workload/table.c. */
extern const struct workload *const workload_table[];

/* The workload called name, or NULL. */
const struct workload *workload_find(const char *name);

#endif
