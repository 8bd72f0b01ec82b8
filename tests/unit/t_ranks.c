/* t_ranks.c - the merge of several ranks' figures on injected data, without MPI: IOR's
 * rule on given start and stop times, totals as exact sums, first done, the rates'
 * spread and the slow-rank note, metrics by unit and by their own rules, the histogram
 * merge against one histogram of all samples, the JSON of a run with ranks both ways,
 * and a workload's own gate and share in a world of one. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "core/rng.h"
#include "runner/ranks.h"
#include "runner/ranks_int.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "stats/result_keys.h"

static double metric(const struct row *w, const char *name)
{
	const struct metric *m = row_metric(w, name);

	return m ? m->value : NAN;
}

/* A timed rank: start and own time in ms, bytes, MB/s over its own time. */
static void fig(struct rank_fig *f, uint64_t start_ms, uint64_t ms, uint64_t bytes)
{
	memset(f, 0, sizeof(*f));
	f->present = f->timed = 1;
	f->start_ns = start_ms * 1000000ull;
	f->elapsed_ns = ms * 1000000ull;
	f->bytes = bytes;
	f->ops = bytes / 4096;
	f->rate = (double)bytes / ((double)f->elapsed_ns / 1e9) / 1e6;
	f->cache_pct = -1;
}

/* Three ranks released by the gate at 0: one starts 2 ms late, one is slow. Aggregate:
 * all bytes over (latest stop - earliest start), never a sum or mean of rates. */
static void t_ior_rule(void)
{
	static const char *const hosts[] = { "a", "b", "c" };
	struct run *run = run_new("dd");
	struct row *w = run ? run_add_row(run, "dd", "write") : NULL;
	struct rank_fig f[3];
	uint64_t total = 0;

	CHECK(w != NULL);
	if (!w)
		return;
	str_set(&w->rate_unit, "MB/s");
	fig(&f[0], 1, 1000, 1000000000);	/* 1 ms .. 1001 ms */
	fig(&f[1], 3, 1200, 1000000000);	/* 3 ms .. 1203 ms */
	fig(&f[2], 0, 2000, 1000000000);	/* 0 .. 2000 ms: the slow host */
	f[0].first_frac = 1.0;			/* the first stop is rank 0's at 1001 ms */
	f[1].first_frac = ranks_done_at(NULL, NULL, 0, f[1].elapsed_ns, 1, 998000000);
	f[2].first_frac = ranks_done_at(NULL, NULL, 0, f[2].elapsed_ns, 1, 1001000000);
	for (int i = 0; i < 3; i++)
		total += f[i].bytes;
	CHECK(ranks_merge_row(w, f, 3, NULL, hosts) == 0);
	CHECK_EQ_U64(w->bytes, total);
	CHECK_EQ_U64(w->ops, f[0].ops + f[1].ops + f[2].ops);
	CHECK_EQ_U64(w->elapsed_ns, 2000000000ull);	/* max stop 2000 ms - min start 0 */
	CHECK_NEAR(w->rate, 3e9 / 2.0 / 1e6, 1e-6);
	CHECK_NEAR(metric(w, RK_ROW_LAST_DONE_S), 2.0, 1e-12);
	CHECK_NEAR(metric(w, RK_ROW_FIRST_DONE_S), 1.001, 1e-12);
	/* by 1001 ms: rank 0 all of it, rank 1 998/1200 of it, rank 2 1001/2000 of it */
	CHECK_NEAR(metric(w, RK_ROW_FIRST_DONE_RATE),
		   (1000.0 + 1000.0 * 998 / 1200 + 1000.0 * 1001 / 2000) / 1.001, 1e-6);
	CHECK_NEAR(metric(w, RK_ROW_RANK_RATE_MIN), 500.0, 1e-9);
	CHECK_NEAR(metric(w, RK_ROW_RANK_RATE_MAX), 1000.0, 1e-9);
	CHECK_NEAR(metric(w, RK_ROW_RANK_RATE_MEAN), (1000.0 + 1000.0 / 1.2 + 500.0) / 3, 1e-9);
	CHECK(w->nranks == 3 && w->ranks[2].start_ns == 0 && w->ranks[0].start_ns == 1000000);
	CHECK_EQ_U64(w->ranks[1].stop_ns, 1203000000ull);
	CHECK(w->note && strstr(w->note, "rank 2 on c: 40% below the median"));
	CHECK(kv_get(&w->params, RK_ROW_RANK_COUNT) &&
	      !strcmp(kv_get(&w->params, RK_ROW_RANK_COUNT), "3"));
	CHECK(!(w->flags & ROW_SHORT));
	run_free(run);
}

/* A failed rank's error names it; flags are or'ed; a failed rank is no "slow host". */
static void t_failure(void)
{
	static const char *const hosts[] = { "a", "db07" };
	struct run *run = run_new("dd");
	struct row *w = run ? run_add_row(run, "dd", "write") : NULL;
	struct rank_fig f[2];

	CHECK(w != NULL);
	if (!w)
		return;
	fig(&f[0], 0, 100, 100000000);
	fig(&f[1], 0, 50, 1000000);
	f[0].flags = ROW_INCOMPLETE;
	f[1].flags = ROW_FAILED;
	snprintf(f[1].error, sizeof(f[1].error), "No space left on device");
	CHECK(ranks_merge_row(w, f, 2, NULL, hosts) == 0);
	CHECK((w->flags & (ROW_FAILED | ROW_INCOMPLETE | ROW_SHORT)) ==
	      (ROW_FAILED | ROW_INCOMPLETE | ROW_SHORT));
	CHECK(w->error && !strcmp(w->error, "rank 1 on db07: No space left on device"));
	CHECK(!w->note);
	run_free(run);
}

/* Rows without a window: a latency-time row sums its times, another takes the longest. */
static void t_untimed(void)
{
	struct run *run = run_new("postmark");
	struct row *w = run ? run_add_row(run, "postmark", "create") : NULL;
	struct row *t = run ? run_add_row(run, "db", "script_total") : NULL;
	struct rank_fig f[2];

	CHECK(w && t);
	if (!w || !t)
		return;
	memset(f, 0, sizeof(f));
	for (int i = 0; i < 2; i++) {
		f[i].present = f[i].has_lat = 1;
		f[i].ops = f[i].lat_n = 100;
		f[i].elapsed_ns = f[i].lat_sum = 1000000ull * (i + 1);
		f[i].rate = (double)f[i].ops / ((double)f[i].elapsed_ns / 1e9);
		f[i].cache_pct = -1;
	}
	CHECK(ranks_merge_row(w, f, 2, NULL, NULL) == 0);
	CHECK_EQ_U64(w->elapsed_ns, 3000000);
	CHECK_NEAR(w->rate, 200 / 0.003, 1e-6);		/* one over the mean latency */
	f[0].has_lat = f[1].has_lat = 0;
	f[0].rate = f[1].rate = NAN;
	CHECK(ranks_merge_row(t, f, 2, NULL, NULL) == 0);
	CHECK_EQ_U64(t->elapsed_ns, 2000000);
	CHECK(isnan(t->rate));
	run_free(run);
}

/* A device's row (the job's disk rows): ranks on one host saw the same device, so each
 * host counts once, by its largest figure; rank 3 has no such row. */
static void t_device_row(void)
{
	static const char *const hosts[] = { "a", "a", "b", "b" };
	struct run *run = run_new("job");
	struct row *w = run ? run_add_row(run, "job", "disk") : NULL;
	struct rank_fig f[4];
	int i;

	CHECK(w != NULL);
	if (!w)
		return;
	kv_set(&w->params, RK_JOB_DEVICE, "vda");
	memset(f, 0, sizeof(f));
	for (i = 0; i < 3; i++) {
		f[i].present = 1;
		f[i].bytes = i == 1 ? 120 : i == 0 ? 100 : 50;
		f[i].ops = f[i].bytes / 10;
		f[i].elapsed_ns = 1000000000ull;
		f[i].rate = (double)f[i].bytes / 1e6;
		f[i].cache_pct = -1;
	}
	CHECK(ranks_merge_row(w, f, 4, NULL, hosts) == 0);
	CHECK_EQ_U64(w->bytes, 120 + 50);
	CHECK_EQ_U64(w->ops, 12 + 5);
	CHECK_NEAR(w->rate, 170 / 1e6, 1e-12);
	run_free(run);
}

static void t_done_at(void)
{
	static const uint64_t t[] = { 100, 200, 300 }, d[] = { 10, 50, 60 };

	CHECK_NEAR(ranks_done_at(t, d, 3, 400, 100, 50), 0.05, 1e-12);
	CHECK_NEAR(ranks_done_at(t, d, 3, 400, 100, 150), 0.30, 1e-12);
	CHECK_NEAR(ranks_done_at(t, d, 3, 400, 100, 350), 0.80, 1e-12);
	CHECK_NEAR(ranks_done_at(t, d, 3, 400, 100, 400), 1.0, 1e-12);
	CHECK_NEAR(ranks_done_at(NULL, NULL, 0, 400, 1, 100), 0.25, 1e-12);
}

static void t_metric_units(void)
{
	static const double v[] = { 1, 4, NAN, 3 };

	CHECK_NEAR(ranks_metric_merge("records", v, 4), 8, 0);
	CHECK_NEAR(ranks_metric_merge("s", v, 4), 4, 0);
	CHECK_NEAR(ranks_metric_merge("bool", v, 4), 4, 0);
	CHECK_NEAR(ranks_metric_merge("%", v, 4), 8.0 / 3, 1e-12);
	CHECK_NEAR(ranks_metric_merge("files/s", v, 4), 8, 0);
}

/* Metrics with a rule of their own (ranks_metric.c) on three ranks, two on host a:
 * latency summaries as one summary of all samples (rank 2 measured none), a rate over
 * each rank's time by the span, a device counter once per host, the first errno. */
static void t_metric_rules(void)
{
	static const char *const names[] = { RK_JOB_LAT_N, RK_JOB_LAT_MIN_NS, RK_JOB_LAT_MAX_NS,
		RK_JOB_LAT_MEAN_NS, RK_JOB_LAT_SD_NS, RK_JOB_BW_BYTES, RK_JOB_DEV_READ_BYTES,
		RK_JOB_ERRNO, RK_DD_RECORDS_OUT_FULL };
	/* samples {1, 2, 3}, {10, 20} and none: n, min, max, mean, sd per rank */
	static const double v[] = { 3, 2, 0,   1, 10, 0,   3, 20, 0,   2, 15, 0,
		1, 7.0710678118654755, 0,   100, 200, NAN,   5, 7, 3,   0, 5, 28,   1, 2, 3 };
	static const char *const hosts[] = { "a", "a", "b" };
	struct run *run = run_new("job");
	struct row *w = run ? run_add_row(run, "job", "read") : NULL;
	struct rank_fig f[3];
	struct ranks_metric_in in = { v, 3, f, hosts, 3000000000ull };
	size_t i;

	CHECK(w != NULL);
	if (!w)
		return;
	fig(&f[0], 0, 1000, 1);
	fig(&f[1], 0, 2000, 1);
	fig(&f[2], 0, 3000, 1);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		row_add_metric(w, names[i], v[i * 3], "");
	row_add_metric(w, "later", 42, "");	/* past nm: left as it is */
	CHECK(ranks_merge_metrics(w, 9, &in) == 0);
	CHECK_NEAR(metric(w, RK_JOB_LAT_N), 5, 0);
	CHECK_NEAR(metric(w, RK_JOB_LAT_MIN_NS), 1, 0);
	CHECK_NEAR(metric(w, RK_JOB_LAT_MAX_NS), 20, 0);
	CHECK_NEAR(metric(w, RK_JOB_LAT_MEAN_NS), 7.2, 1e-12);
	CHECK_NEAR(metric(w, RK_JOB_LAT_SD_NS), sqrt(254.8 / 4), 1e-9);
	CHECK_NEAR(metric(w, RK_JOB_BW_BYTES), (100.0 * 1 + 200.0 * 2) / 3, 1e-9);
	CHECK_NEAR(metric(w, RK_JOB_DEV_READ_BYTES), 7 + 3, 0);
	CHECK_NEAR(metric(w, RK_JOB_ERRNO), 5, 0);
	CHECK_NEAR(metric(w, RK_DD_RECORDS_OUT_FULL), 6, 0);
	CHECK_NEAR(metric(w, "later"), 42, 0);
	run_free(run);
}

/* --verify's first bad offsets: the lowest of the ranks that found such blocks (an
 * offset of 0 is one), never their sum; rank 0 found none (its metrics absent, as the
 * merge then adds them); the counts are summed. */
static void t_verify_first(void)
{
	static const char *const names[] = { RK_VERIFY_CORRUPTED, RK_VERIFY_FIRST_CORRUPTED,
		RK_VERIFY_TORN, RK_VERIFY_FIRST_TORN };
	static const double v[] = { NAN, 2, 1,   NAN, 8192, 0,   NAN, 3, NAN,
		NAN, 65536, NAN };
	struct run *run = run_new("job");
	struct row *w = run ? run_add_row(run, "job", "verify") : NULL;
	struct rank_fig f[3];
	struct ranks_metric_in in = { v, 3, f, NULL, 3000000000ull };
	size_t i;

	CHECK(w != NULL);
	if (!w)
		return;
	for (i = 0; i < 3; i++)
		fig(&f[i], 0, 1000, 1);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		row_add_metric(w, names[i], NAN, i % 2 ? "B" : "blocks");
	CHECK(ranks_merge_metrics(w, 4, &in) == 0);
	CHECK_NEAR(metric(w, RK_VERIFY_CORRUPTED), 3, 0);
	CHECK_NEAR(metric(w, RK_VERIFY_FIRST_CORRUPTED), 0, 0);
	CHECK_NEAR(metric(w, RK_VERIFY_TORN), 3, 0);
	CHECK_NEAR(metric(w, RK_VERIFY_FIRST_TORN), 65536, 0);
	run_free(run);
}

/* Every rule names metrics the key tables declare: a renamed key cannot drop its rule. */
static void t_metric_rules_declared(void)
{
	const struct ranks_metric_rule *k;

	for (k = ranks_metric_rules; k->name; k++) {
		CHECK(result_key_find(NULL, RK_METRIC, k->name) != NULL);
		CHECK(!k->n || result_key_find(NULL, RK_METRIC, k->n) != NULL);
		CHECK(!k->mean || result_key_find(NULL, RK_METRIC, k->mean) != NULL);
	}
}

/* Four ranks' histograms merged as the reduction does (bucket arrays added, exact sums
 * from each rank's figures) are one histogram of all their samples, with the same
 * percentiles: never averages of percentiles. Large values check the carry between the
 * two words of the sum of squares. */
static void t_hist_merge(void)
{
	struct hist *all = malloc(sizeof(*all)), *one = malloc(sizeof(*one)), *m = NULL;
	uint64_t *b = calloc(HIST_NBUCKETS, sizeof(*b));
	struct rank_fig f[4];
	struct rng r;
	unsigned k, i;

	CHECK(all && one && b);
	if (!all || !one || !b)
		goto out;
	hist_init(all);
	rng_seed(&r, 17);
	memset(f, 0, sizeof(f));
	for (k = 0; k < 4; k++) {
		hist_init(one);
		for (i = 0; i < 50000; i++) {
			/* rank 3 is ten times slower: its tail is the merged tail */
			uint64_t v = 1000 + rng_next(&r) % (k == 3 ? 1000000 : 100000);

			if (i == 0)
				v = 5000000000ull * (k + 1);	/* 5..20 s: squares past 2^64 */
			hist_add(one, v);
			hist_add(all, v);
		}
		ranks_fig_lat(&f[k], one);
		for (i = 0; i < HIST_NBUCKETS; i++)
			b[i] += one->b[i];
	}
	m = ranks_hist_merge(b, f, 4);
	CHECK(m != NULL);
	if (!m)
		goto out;
	CHECK_EQ_U64(m->n, all->n);
	CHECK_EQ_U64(m->sum, all->sum);
	CHECK(m->sumsq == all->sumsq);
	CHECK_EQ_U64(m->min, all->min);
	CHECK_EQ_U64(m->max, all->max);
	CHECK(!memcmp(m->b, all->b, sizeof(m->b)));
	CHECK_EQ_U64(hist_percentile(m, 50), hist_percentile(all, 50));
	CHECK_EQ_U64(hist_percentile(m, 99), hist_percentile(all, 99));
	CHECK_EQ_U64(hist_percentile(m, 99.9), hist_percentile(all, 99.9));
	CHECK(hist_stddev(m) == hist_stddev(all));
out:
	free(all);
	free(one);
	free(m);
	free(b);
}

/* A run with ranks: dump, load, dump gives the same text; the members come back. */
static void t_json(void)
{
	struct run *run = run_new("dd"), *back = NULL;
	struct row *w = run ? run_add_row(run, "dd", "write") : NULL;
	struct rank_fig f[2];
	char err[256], *a = NULL, *b = NULL;

	CHECK(w != NULL);
	if (!w)
		return;
	str_set(&w->rate_unit, "MB/s");
	fig(&f[0], 0, 600, 600000000);
	fig(&f[1], 1, 700, 600000000);
	f[1].sw_bytes = 500000000;
	CHECK(ranks_merge_row(w, f, 2, NULL, NULL) == 0);
	run->ranks = calloc(2, sizeof(*run->ranks));
	CHECK(run->ranks != NULL);
	if (run->ranks) {
		run->nranks = 2;
		for (int i = 0; i < 2; i++) {
			run->ranks[i].rank = (unsigned)i;
			run->ranks[i].env.rotational = run->ranks[i].env.virtualized = -1;
			str_set(&run->ranks[i].env.host, i ? "db07" : "db01");
			str_set(&run->ranks[i].env.fs_type, i ? "xfs" : "ext4");
		}
		run->ranks[1].fs_differs = 1;
	}
	a = result_json_dump(run);
	back = a ? result_json_load(a, err, sizeof(err)) : NULL;
	b = back ? result_json_dump(back) : NULL;
	CHECK(a && b && !strcmp(a, b));
	CHECK(back && back->nranks == 2 && back->ranks[1].fs_differs &&
	      !strcmp(back->ranks[1].env.host, "db07"));
	CHECK(back && back->rows[0]->nranks == 2 &&
	      back->rows[0]->ranks[1].stonewall_bytes == 500000000 &&
	      back->rows[0]->ranks[1].start_ns == 1000000);
	free(a);
	free(b);
	run_free(back);
	run_free(run);
}

/* A world of one: a workload's own gate is its status, a share leaves the data as they
 * are (the battery's plan and decisions across ranks, workload/battery/battery_ranks.c). */
static void t_world_of_one(void)
{
	char buf[8] = "plan";

	CHECK(ranks_gate(0, NULL) == 0);
	CHECK(ranks_gate(-EIO, "the probe failed") == -EIO);
	CHECK(ranks_share(buf, sizeof(buf), 0, NULL) == 0);
	CHECK(!strcmp(buf, "plan"));
	CHECK(ranks_share(buf, sizeof(buf), -ENOSPC, "no plan") == -ENOSPC);
	CHECK(!strcmp(buf, "plan"));
}

int main(void)
{
	RUN(t_ior_rule);
	RUN(t_failure);
	RUN(t_untimed);
	RUN(t_device_row);
	RUN(t_done_at);
	RUN(t_metric_units);
	RUN(t_metric_rules);
	RUN(t_verify_first);
	RUN(t_metric_rules_declared);
	RUN(t_hist_merge);
	RUN(t_json);
	RUN(t_world_of_one);
	return test_done();
}
