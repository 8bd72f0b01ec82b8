/* compare.h - statistics over repeats and between runs.
 *
 * Three layers:
 *  1. numbers: Student's t distribution (CDF and quantiles, computed here from the
 *     regularised incomplete beta function), per-figure summaries (mean, sd, CV, 95%
 *     confidence interval), Welch's unequal-variance t-test and a 95% confidence interval
 *     on a ratio of two means (Fieller's theorem);
 *  2. grouping: the rows of one run that are repeats of the same figure (same workload,
 *     phase and params; differing only in the repeat index) form a group;
 *  3. comparison: the groups of two runs lined up by (workload, phase, params), each pair
 *     either compared (ratio, CI, significance, winner) or refused with a reason.
 * All functions are pure apart from what they allocate and document; thread-safe except
 * that lgamma() may write the C library's signgam. docs/methodology-results.md explains
 * every formula. */
#ifndef IOB_STATS_COMPARE_H
#define IOB_STATS_COMPARE_H

#include <stddef.h>

struct run;
struct row;

/* ---- numbers ------------------------------------------------------------------ */

/* Regularised incomplete beta function I_x(a, b) for a, b > 0, 0 <= x <= 1.
 * NaN for arguments out of range. */
double stats_ibeta(double x, double a, double b);
/* P(T <= t) for Student's t with df > 0 degrees of freedom (df may be fractional). */
double stats_t_cdf(double t, double df);
/* The p-quantile of Student's t with df > 0 (0 < p < 1); NaN out of range.
 * Accurate to about 1e-10 relative (bisection on stats_t_cdf). */
double stats_t_quantile(double p, double df);
/* Two-sided 95% critical value t_{0.975, df}; NaN for df <= 0. */
double stats_t95(double df);

/* A figure summarised over its repeats. */
struct fig_stats {
	unsigned n;		/* samples */
	double mean;
	double sd;		/* sample standard deviation (n-1); 0 when n < 2 */
	double cv;		/* sd / |mean|; 0 when n < 2 or mean == 0 */
	double half;		/* 95% CI half-width t_{0.975,n-1} * sd / sqrt(n); 0 when n < 2 */
	double lo, hi;		/* mean -/+ half */
};

/* Summarise n samples into *out (n == 0 gives all zeros). */
void stats_describe(const double *x, size_t n, struct fig_stats *out);

struct welch {
	double t;		/* (mean_b - mean_a) / sqrt(va/na + vb/nb) */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided p-value */
};
/* Welch's t-test of b against a. Needs n >= 2 on both sides: returns 0, or -EDOM when
 * either side has fewer than 2 samples. Zero variance on both sides gives p = 1 when the
 * means are equal and p = 0 otherwise. */
int stats_welch(const struct fig_stats *a, const struct fig_stats *b, struct welch *out);

/* The ratio mean_b / mean_a with a 95% confidence interval by Fieller's theorem, using
 * the t quantile at the Welch degrees of freedom. Returns 1 when [*lo, *hi] is a bounded
 * interval, 0 when only the point estimate exists (a side with n < 2, or the
 * denominator's mean is not significantly different from zero: the interval is
 * unbounded), -EDOM when mean_a == 0. */
int stats_ratio_ci(const struct fig_stats *a, const struct fig_stats *b, double *ratio,
		   double *lo, double *hi);

/* ---- groups of repeats ---------------------------------------------------------- */

/* The CV above which a figure's repeats are flagged inconsistent. */
#define COMPARE_CV_LIMIT 0.10

/* The rows of one run that are repeats of one figure. */
struct row_group {
	const struct row *first;	/* representative row (lowest repeat index) */
	const struct row **rows;	/* every row of the group, in run order; owned */
	size_t nrows;
	struct fig_stats value;		/* over measured rows only (see compare_row_value) */
	struct fig_stats cpu;		/* %CPU of the process, rows with cpu.valid */
	unsigned flags;			/* OR of every row's flags, plus ROW_INCONSISTENT
					 * when the value's CV exceeds COMPARE_CV_LIMIT */
	int higher_better;		/* 1 for rates, 0 for times */
	const char *unit;		/* the value's unit (borrowed from first) */
};

struct run_groups {
	struct row_group *g;
	size_t n;
};

/* The figure of a row: its rate when it has one (higher is better), else its elapsed time
 * in seconds (lower is better). *higher_better (may be NULL) says which; *unit (may be
 * NULL) receives the unit. Returns 0, or -ENODATA when the row has no figure (failed, not
 * measured, or neither rate nor time). */
int compare_row_value(const struct row *w, double *value, int *higher_better,
		      const char **unit);
/* 1 when two rows are repeats of the same figure (workload, phase and every param equal,
 * params compared as sets), else 0. */
int compare_same_figure(const struct row *a, const struct row *b);
/* Group the run's rows into *out (which the caller frees with compare_groups_free).
 * The groups point into run: keep run alive. Returns the number of groups or -ENOMEM. */
int compare_group_run(const struct run *run, struct run_groups *out);
void compare_groups_free(struct run_groups *g);
/* Set ROW_INCONSISTENT on every row of a group whose value CV exceeds COMPARE_CV_LIMIT
 * (groups of 2 or more measured repeats). Not thread-safe (writes the run). */
void compare_flag_inconsistent(struct run *run);

/* ---- comparison of two runs -------------------------------------------------------- */

enum cmp_winner { CMP_TIE = 0, CMP_A = 1, CMP_B = 2 };

/* One line of a comparison: a group of run A beside its counterpart in run B. */
struct cmp_line {
	const struct row_group *a, *b;	/* b NULL when B has no such figure; a NULL when only B */
	char *refusal;			/* why they are not compared (owned), NULL when compared */
	double ratio;			/* mean_b / mean_a */
	double delta_pct;		/* B relative to A in percent, positive = B better */
	int have_ci;			/* lo/hi valid */
	double lo_pct, hi_pct;		/* 95% CI of delta_pct (in "B better" orientation) */
	int tested;			/* Welch test done (both sides have repeats) */
	struct welch w;
	int significant;		/* tested and p < 0.05 */
	enum cmp_winner winner;		/* by the point estimate; CMP_TIE when equal */
};

struct cmp_result {
	struct cmp_line *l;
	size_t n;
	unsigned compared;		/* lines without refusal */
	unsigned b_better, b_better_sig;
	unsigned a_better, a_better_sig;
	unsigned refused;		/* lines with both sides present but refused */
	unsigned unmatched;		/* lines with one side missing */
};

/* Line up the groups of A and B and compare them. *out is filled (caller frees with
 * compare_result_free; the lines point into a and b). Returns 0 or -ENOMEM. */
int compare_groups(const struct run_groups *a, const struct run_groups *b,
		   struct cmp_result *out);
void compare_result_free(struct cmp_result *r);
/* Why rows a and b (same workload and phase) must not be compared: a new string (caller
 * frees) naming the first difference, or NULL when they are comparable (or on ENOMEM). */
char *compare_refusal(const struct row_group *a, const struct row_group *b);
/* Text for a row's params "bs=1048576 direct=0", into buf. Returns buf. */
char *compare_params_str(const struct row *w, char *buf, size_t len);

#endif
