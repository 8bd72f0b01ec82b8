/* compare_int.h - what the files of `iobattery compare` share (compare.c: options and the
 * flow; compare_sides.c: the runs compared, grouped by label; compare_text.c: the text;
 * compare_data.c: JSON and CSV). Not for other modules. Not thread-safe. */
#ifndef IOB_CMD_COMPARE_INT_H
#define IOB_CMD_COMPARE_INT_H

#include <stddef.h>
#include <stdio.h>

#include "stats/compare.h"

struct run;

/* One side of the comparison: A (the baseline), B, C ... */
struct cmp_side {
	char name;			/* 'A', 'B', ... */
	const char *spec;		/* what the user gave (borrowed from argv), or the label */
	struct run *run;		/* the run compared: one loaded run, or with --group-by
					 * label a merge of several that borrows their rows */
	struct run **members;		/* the runs loaded for this side; owned */
	size_t nmembers;
	int merged;			/* run is a merge: free its row array only */
};

/* Everything the writers need. */
struct cmp_all {
	struct cmp_side *side;
	size_t n;
	struct run_groups *groups;	/* per side */
	struct cmp_result *pair;	/* pair[i] for i >= 1: side i against side 0 */
	double limit;			/* --fail-if-slower percent; < 0 off */
	unsigned regressions;		/* figures worse than A by more than limit */
};

/* Load the sides from specs[0..n-1] (result files, store ids or labels). by_label: each
 * label names every stored run with it, and the runs loaded are grouped by label, in
 * order of first appearance (a run without a label is a side of its own), so that the
 * repeats of one configuration measured in several runs count as repeats. Returns the
 * number of sides with *out (caller frees with compare_sides_free) or -errno after a
 * message. */
int compare_load_sides(char **specs, size_t n, int use_store, int by_label,
		       struct cmp_side **out);
void compare_sides_free(struct cmp_side *s, size_t n);

/* "dd write bs=1M": workload, phase and the row's detail. Into buf. */
void compare_figure_name(char *buf, size_t len, const struct row_group *g);
/* The verdict of a line as a word: "b_better", "a_better", "equal", "refused",
 * "only_a", "only_b", "no_ratio" (A is zero). Static string. */
const char *compare_verdict(const struct cmp_line *l);
/* 1 when l is a regression beyond limit percent (significant when tested). */
int compare_is_regression(const struct cmp_line *l, double limit);

/* The writers: 0 or -EIO (write errors: ferror), -ENOMEM. */
int compare_write_text(FILE *f, const struct cmp_all *c);
int compare_write_json(FILE *f, const struct cmp_all *c);
int compare_write_csv(FILE *f, const struct cmp_all *c);

#endif
