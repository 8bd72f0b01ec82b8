/* battery_table.h - the battery's comparison of configurations: the file systems of one
 * battery run (rows told apart by their fs_config param), or whole runs (one battery per
 * machine or OS). Configurations are the rows of seed 004's grouped table, figures its
 * columns (grouped by workload). Per cell the mean over repeats with its 95% CI, the
 * rank in its column and a shade by relative position (as bon_csv2html shades), and the
 * delta against the baseline configuration with its 95% CI (Fieller) and Welch's test.
 * Built from the results model only; pure apart from what it allocates; thread-safe. */
#ifndef IOB_STATS_BATTERY_TABLE_H
#define IOB_STATS_BATTERY_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "stats/compare.h"

struct run;
struct row;

struct bt_cell {
	int have;			/* the configuration has this figure */
	struct fig_stats s;		/* over its measured repeats */
	unsigned flags;			/* OR of the rows' flags */
	unsigned rank;			/* 1 = best in the column */
	double shade;			/* 0 worst .. 1 best, by position between min and max */
	int compared;			/* delta against the baseline computed */
	double delta_pct;		/* positive: better than the baseline */
	int have_ci;
	double lo_pct, hi_pct;		/* 95% CI of delta_pct */
	int tested, significant;	/* Welch's test done; p < 0.05 */
	double p99_ns;			/* latency p99 of the first repeat, 0 none */
};

struct bt_fig {
	const struct row *first;	/* a representative row */
	char *key;			/* workload|phase|params without the configuration's */
	char name[160];			/* "dd write bs=1M" */
	char what[160];			/* what was measured: "until fdatasync; O_DIRECT" */
	const char *unit;
	int higher_better;
	unsigned nhave;			/* configurations that have it */
	size_t leader;			/* the best configuration */
	int lead_sig;			/* the leader is significantly ahead of the next */
};

struct bt_conf {
	char name[192];			/* "xfs@noatime", or the run's name */
	const struct run *run;
	unsigned leads, leads_sig;
};

struct battery_table {
	struct bt_conf *conf;
	size_t nconf;
	struct bt_fig *fig;
	size_t nfig;
	struct bt_cell *cell;		/* nconf x nfig: cell[c * nfig + f] */
	size_t baseline;		/* index of the baseline configuration */
	unsigned compared;		/* figures that two configurations or more have */
	int loop;			/* the file systems sat on loop devices over files */
};

static inline struct bt_cell *bt_at(const struct battery_table *t, size_t c, size_t f)
{
	return &t->cell[c * t->nfig + f];
}

/* Build the table of runs[0..n-1] (names[i]: what the user called run i; may be NULL).
 * A run is named by its label where no other run has the same, else by names[i].
 * baseline: a configuration's name (or a run's name); NULL: the first.
 * Returns the number of configurations (>= 0) or -ENOMEM, -ENOENT when baseline names
 * none. The table points into the runs: keep them alive; free with battery_table_free. */
int battery_table_build(struct run *const *runs, const char *const *names, size_t n,
			const char *baseline, struct battery_table *t);
void battery_table_free(struct battery_table *t);
/* 1 when runs hold two configurations or more (a comparison to show). */
int battery_table_useful(struct run *const *runs, size_t n);
/* The summary sentence ("xfs leads in 9 of 14 figures, 6 significantly; ext4 leads in 3;
 * btrfs leads in 2"), and the latency one ("latency p99 of iozone random_write 4k: ext4
 * 1.9 ms, xfs 2.3 ms") into buf (empty when no figure has latency). Return buf. */
char *battery_table_leads(const struct battery_table *t, char *buf, size_t len);
char *battery_table_latency(const struct battery_table *t, char *buf, size_t len);
/* The text summary of one run's configurations: the sentences, then per figure each
 * configuration's mean and its delta against the baseline. 0 or -errno. */
int battery_table_summary(FILE *f, const struct run *run, const char *baseline);

#endif
