/* verdict.h - the answer to the question the battery exists for: which configuration
 * (file system, mkfs and mount options, device, kernel; or whole runs) should a database
 * server run on, and how sure are we. Per aspect a database cares about (commit latency,
 * random 8 KiB reads at queue depth 1 and 32, sequential scan, bulk load, small-file
 * metadata, the SQL script) the configuration that leads, by how much, the 95% interval
 * of the lead and whether it is significant (Welch's test over repeats, stats/compare.h);
 * then one sentence: the configuration to choose and why, or why the data cannot decide
 * and the command that would. Figures carrying a flag of stats/flags.h's untrusted kind
 * never decide. The rule is docs/methodology.md's "The verdict".
 * With one configuration, the same aspects as figures beside reference points
 * (verdict_refs) and what limits each here.
 * Pure: reads the results model only; what it allocates is freed by verdict_free. */
#ifndef IOB_STATS_VERDICT_H
#define IOB_STATS_VERDICT_H

#include <stddef.h>

#include "stats/compare.h"

struct run;
struct row;

enum verdict_aspect_id {
	VERDICT_COMMIT,		/* fastest durable 8 KiB write (fsync one_write), ops/s */
	VERDICT_RAND_QD1,	/* 8 KiB random reads, queue depth 1 (the battery's job) */
	VERDICT_RAND_QD32,	/* the same at queue depth 32 */
	VERDICT_SQL,		/* the SQL script's total time */
	VERDICT_LOAD,		/* bulk load: dd write until durable, else the db's inserts */
	VERDICT_SCAN,		/* sequential scan: dd read of the device */
	VERDICT_META,		/* small-file metadata: PostMark, else Bonnie++'s creates */
	VERDICT_NASPECTS
};

/* Why an aspect does not decide. */
enum verdict_why {
	VERDICT_DECIDED = 0,
	VERDICT_NO_DATA,	/* no configuration has the figure */
	VERDICT_ONE_CONF,	/* only one configuration has it */
	VERDICT_UNTRUSTED,	/* fewer than two configurations have a trustworthy figure */
	VERDICT_SINGLE,		/* single runs: no interval, no test */
	VERDICT_OVERLAP,	/* the 95% intervals overlap: not significant */
};

/* One configuration's figure for one aspect. */
struct verdict_cell {
	int have;
	int trusted;			/* no flag of flag_untrusted_mask() */
	unsigned flags;			/* OR of its rows' flags */
	struct fig_stats s;		/* over the repeats */
	double p99_ns;			/* latency p99 (first repeat), 0 none */
	const struct row *row;		/* the figure's representative row */
	char figure[160];		/* which figure: "fsync one_write fdatasync" */
};

struct verdict_aspect {
	const char *name;		/* "commit latency" */
	const char *unit;		/* the figures' unit ("ops/s", "MB/s", "s") */
	int higher_better;
	size_t leader, second;		/* configuration indexes; nconf when none */
	enum verdict_why why;
	double lead_pct;		/* leader ahead of second, percent (positive) */
	int have_ci;
	double lo_pct, hi_pct;		/* 95% interval of lead_pct (Fieller) */
	int tested;			/* Welch's test done */
	double p;			/* its two-sided p-value */
};

struct verdict {
	size_t nconf;
	char (*conf)[192];		/* the configurations' names */
	const struct run **conf_run;	/* the run each belongs to */
	struct verdict_cell *cell;	/* nconf x VERDICT_NASPECTS: verdict_at */
	struct verdict_aspect a[VERDICT_NASPECTS];
	int decided;			/* a configuration is named */
	size_t choice;			/* it (when decided) */
	char sentence[1024];		/* the answer, one sentence */
	char command[512];		/* what would decide it ("" when decided) */
};

static inline struct verdict_cell *verdict_at(const struct verdict *v, size_t c, int a)
{
	return &v->cell[c * VERDICT_NASPECTS + (size_t)a];
}

/* Build the verdict of runs[0..n-1] (names[i]: what the user called run i, may be NULL):
 * the configurations are battery_table's (stats/battery_table.h). Returns the number of
 * configurations (0 when no run has a figure), or -ENOMEM. Points into the runs: keep
 * them alive; free with verdict_free. */
int verdict_build(struct run *const *runs, const char *const *names, size_t n,
		  struct verdict *v);
void verdict_free(struct verdict *v);

/* What an aspect measures, one phrase ("a durable 8 KiB commit, the WAL's write"). */
const char *verdict_aspect_means(int aspect);
/* Why an aspect did not decide, a phrase ("single runs: no interval"). */
const char *verdict_why_text(enum verdict_why why);

/* A documented reference point: a figure of a known device with its source. */
struct verdict_ref {
	int aspect;
	double value;			/* in the aspect's usual unit (unit) */
	const char *unit;		/* "ops/s", "MB/s" */
	const char *what;		/* "a 7,200 rpm disk without write cache" */
	const char *source;		/* where the figure comes from */
};
/* The reference points (docs/methodology.md, "Reference points"), ended by
 * { -1, 0, NULL, NULL, NULL }. */
extern const struct verdict_ref verdict_refs[];

/* What limits a configuration's figure of an aspect here, one phrase ("the device",
 * "the host's page cache", "the CPU (98% of one core)", "the tool: a synchronous engine
 * keeps one request in flight"), into buf. Returns buf. */
char *verdict_limit(const struct verdict *v, size_t c, int aspect, char *buf, size_t len);

#endif
