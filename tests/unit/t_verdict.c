/* t_verdict.c - the verdict for a database server (stats/verdict.h) and the one table of
 * row flags (stats/flags.h): a significant lead decides, single runs and overlapping
 * intervals do not, flagged figures never decide, commit latency comes first, one
 * configuration gets reference points; every ROW_* bit has one name. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "stats/flags.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/verdict.h"

/* A row of configuration conf (fs_config) with rate v. */
static struct row *add(struct run *r, const char *conf, const char *wl, const char *ph,
		       unsigned rep, double v, const char *unit)
{
	struct row *w = run_add_row(r, wl, ph);

	w->repeat = rep;
	w->rate = v;
	w->rate_unit = strdup(unit);
	w->elapsed_ns = 2000000000ull;
	w->ops = 100;
	if (conf) {
		kv_set(&w->params, RK_ROW_FS, "%s", conf);
		kv_set(&w->params, RK_ROW_FS_CONFIG, "%s", conf);
	}
	return w;
}

static void commit_rows(struct run *r, const char *conf, unsigned rep, double fds,
			double fsy)
{
	struct row *w = add(r, conf, "fsync", "one_write", rep, fds, "ops/s");

	kv_set(&w->params, RK_FSYNC_TEST, "one_write");
	kv_set(&w->params, RK_FSYNC_METHOD, "fdatasync");
	kv_set(&w->params, RK_ROW_DETAIL, "fdatasync");
	w = add(r, conf, "fsync", "one_write", rep, fsy, "ops/s");
	kv_set(&w->params, RK_FSYNC_TEST, "one_write");
	kv_set(&w->params, RK_FSYNC_METHOD, "fsync");
	kv_set(&w->params, RK_ROW_DETAIL, "fsync");
}

static void scan_row(struct run *r, const char *conf, unsigned rep, double v)
{
	struct row *w = add(r, conf, "dd", "read", rep, v, "MB/s");

	kv_set(&w->params, RK_DD_BS, "1048576");
}

/* xfs commits significantly faster over 4 repeats; ext4 scans faster. */
static void t_decides(void)
{
	struct run *r = run_new("battery");
	struct verdict v;
	unsigned k;

	for (k = 0; k < 4; k++) {
		commit_rows(r, "ext4", k, 500 + k, 300);
		commit_rows(r, "xfs", k, 700 + 2 * k, 310);
		scan_row(r, "ext4", k, 200 + k);
		scan_row(r, "xfs", k, 150 + k);
	}
	CHECK(verdict_build(&r, NULL, 1, &v) == 2);
	CHECK(v.decided);
	CHECK(!strcmp(v.conf[v.choice], "xfs"));
	CHECK(v.a[VERDICT_COMMIT].why == VERDICT_DECIDED);
	CHECK(!strcmp(v.conf[v.a[VERDICT_COMMIT].leader], "xfs"));
	/* the fastest method is fdatasync on both: 703 against 501.5 */
	CHECK_NEAR(v.a[VERDICT_COMMIT].lead_pct, (703.0 / 501.5 - 1) * 100, 1e-6);
	CHECK(v.a[VERDICT_COMMIT].have_ci && v.a[VERDICT_COMMIT].lo_pct > 0);
	CHECK(strstr(verdict_at(&v, 0, VERDICT_COMMIT)->figure, "fdatasync") != NULL);
	/* ext4 leads the scan, significantly: named as the trade-off */
	CHECK(!strcmp(v.conf[v.a[VERDICT_SCAN].leader], "ext4"));
	CHECK(strstr(v.sentence, "Choose xfs") && strstr(v.sentence, "though ext4 leads"));
	CHECK(v.command[0] == '\0');
	CHECK(v.a[VERDICT_RAND_QD1].why == VERDICT_NO_DATA);
	verdict_free(&v);
	run_free(r);
}

/* One run each: no test, the command with --repeat. */
static void t_single_runs(void)
{
	struct run *r = run_new("battery");
	struct verdict v;

	r->command_line = strdup("iobattery battery --fs ext4,xfs");
	commit_rows(r, "ext4", 0, 500, 300);
	commit_rows(r, "xfs", 0, 900, 300);
	CHECK(verdict_build(&r, NULL, 1, &v) == 2);
	CHECK(!v.decided);
	CHECK(v.a[VERDICT_COMMIT].why == VERDICT_SINGLE);
	CHECK(!strcmp(v.conf[v.a[VERDICT_COMMIT].leader], "xfs"));
	CHECK(strstr(v.sentence, "cannot decide") && strstr(v.sentence, "single runs"));
	CHECK(!strcmp(v.command, "iobattery battery --fs ext4,xfs --repeat 5"));
	verdict_free(&v);
	run_free(r);
}

/* Overlapping intervals: tested, not significant. */
static void t_overlap(void)
{
	struct run *r = run_new("battery");
	static const double e[] = { 500, 560, 470, 530 }, x[] = { 510, 480, 550, 520 };
	struct verdict v;
	unsigned k;

	for (k = 0; k < 4; k++) {
		commit_rows(r, "ext4", k, e[k], 10);
		commit_rows(r, "xfs", k, x[k], 10);
	}
	CHECK(verdict_build(&r, NULL, 1, &v) == 2);
	CHECK(v.a[VERDICT_COMMIT].tested && v.a[VERDICT_COMMIT].p >= 0.05);
	CHECK(v.a[VERDICT_COMMIT].why == VERDICT_OVERLAP);
	CHECK(!v.decided && strstr(v.command, "--repeat 5"));
	verdict_free(&v);
	run_free(r);
}

/* A flagged figure never decides, however far ahead. */
static void t_untrusted(void)
{
	struct run *r = run_new("battery");
	struct verdict v;
	size_t i;
	unsigned k;

	for (k = 0; k < 3; k++) {
		commit_rows(r, "ext4", k, 500 + k, 10);
		commit_rows(r, "xfs", k, 90000 + k, 10);
	}
	for (i = 0; i < r->nrows; i++)
		if (!strcmp(kv_get(&r->rows[i]->params, RK_ROW_FS_CONFIG), "xfs"))
			r->rows[i]->flags |= ROW_FLUSH_IMPLAUSIBLE;
	CHECK(verdict_build(&r, NULL, 1, &v) == 2);
	CHECK(!verdict_at(&v, 1, VERDICT_COMMIT)->trusted);
	CHECK(v.a[VERDICT_COMMIT].why == VERDICT_UNTRUSTED);
	CHECK(!v.decided);
	CHECK(strstr(v.sentence, "untrustworthy") != NULL);
	verdict_free(&v);
	run_free(r);
}

/* Several runs are configurations too; one configuration has reference points. */
static void t_runs_and_one(void)
{
	struct run *a = run_new("battery"), *b = run_new("battery"), *runs[2];
	const char *names[2] = { "a.json", "b.json" };
	char lim[160];
	struct verdict v;
	size_t k;
	int refs = 0;

	a->label = strdup("ext4");
	b->label = strdup("xfs");
	scan_row(a, NULL, 0, 100);
	scan_row(b, NULL, 0, 120);
	runs[0] = a;
	runs[1] = b;
	CHECK(verdict_build(runs, names, 2, &v) == 2);
	CHECK(!strcmp(v.conf[0], "ext4") && !strcmp(v.conf[1], "xfs"));
	CHECK(v.a[VERDICT_SCAN].leader == 1 && v.a[VERDICT_SCAN].why == VERDICT_SINGLE);
	verdict_free(&v);
	CHECK(verdict_build(runs, names, 1, &v) == 1);
	CHECK(!v.decided && v.sentence[0] == '\0');
	CHECK(!strcmp(verdict_limit(&v, 0, VERDICT_SCAN, lim, sizeof(lim)), "the device"));
	a->rows[0]->flags |= ROW_CACHE_INFLATED;
	verdict_free(&v);
	CHECK(verdict_build(runs, names, 1, &v) == 1);
	CHECK(strstr(verdict_limit(&v, 0, VERDICT_SCAN, lim, sizeof(lim)), "page cache"));
	for (k = 0; verdict_refs[k].aspect >= 0; k++)
		refs += verdict_refs[k].aspect == VERDICT_COMMIT && verdict_refs[k].source;
	CHECK(refs >= 2);
	verdict_free(&v);
	run_free(a);
	run_free(b);
}

/* Every bit of enum row_flag has one entry, its JSON name is the table's. */
static void t_flags(void)
{
	unsigned bit, n = 0;

	for (bit = 1; bit && bit <= ROW_WRITEBACK_PENDING; bit <<= 1) {
		const struct flag_info *x = flag_info_of(bit);

		CHECK(x != NULL);
		if (!x)
			continue;
		n++;
		CHECK(!strcmp(result_flag_name(bit), x->name));
		CHECK(flag_of_name(x->name) == bit);
		CHECK(x->meaning && x->meaning[0]);
	}
	CHECK_EQ_U64(n, flag_count());
	CHECK(flag_of_name("writeback_pending") == ROW_WRITEBACK_PENDING);
	CHECK(flag_untrusted_mask() & ROW_CACHE_INFLATED);
	CHECK(!(flag_untrusted_mask() & ROW_IMPORTED));
	CHECK(flag_info_of(1u << 30) == NULL);
}

int main(void)
{
	RUN(t_decides);
	RUN(t_single_runs);
	RUN(t_overlap);
	RUN(t_untrusted);
	RUN(t_runs_and_one);
	RUN(t_flags);
	return test_done();
}
