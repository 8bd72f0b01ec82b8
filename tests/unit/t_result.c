/* t_result.c - the results model: kv lists, rows, command line quoting, latency
 * summary, and (under valgrind) that run_free frees everything. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "stats/result.h"

static void t_kv(void)
{
	struct kvlist l = { 0 };

	CHECK(kv_get(&l, "bs") == NULL);
	CHECK(kv_set(&l, "bs", "%d", 4096) == 0);
	CHECK(kv_set(&l, "method", "%s", "copy_file_range") == 0);
	CHECK(strcmp(kv_get(&l, "bs"), "4096") == 0);
	CHECK(kv_set(&l, "bs", "%s", "1M") == 0);
	CHECK_EQ_U64(l.n, 2);
	CHECK(strcmp(kv_get(&l, "bs"), "1M") == 0);
	CHECK(strcmp(l.v[0].key, "bs") == 0);	/* order kept on replace */
	CHECK(strcmp(kv_get(&l, "method"), "copy_file_range") == 0);
	CHECK(kv_get(&l, "nope") == NULL);
	kv_free(&l);
	CHECK(l.n == 0 && l.v == NULL);
}

static void t_rows(void)
{
	struct run *r = run_new("dd");
	struct row *first, *w = NULL;
	char name[32];
	int i;

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK(r->schema_version == RESULT_SCHEMA_VERSION);
	CHECK(r->id && strchr(r->id, '-') && strlen(r->id) > 17);
	CHECK(strcmp(r->workload, "dd") == 0);
	first = run_add_row(r, "dd", "write");
	CHECK(first && first->cache_pct == -1 && first->flags == 0 && first->lat.hist == NULL);
	for (i = 1; i < 100; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		w = run_add_row(r, "dd", name);
		CHECK(w != NULL);
		if (w)
			w->bytes = (uint64_t)i;
	}
	CHECK_EQ_U64(r->nrows, 100);
	CHECK(r->rows[0] == first && strcmp(first->phase, "write") == 0);
	CHECK(r->rows[99] == w && w->bytes == 99);
	CHECK(kv_set(&first->params, "bs", "1024") == 0);
	CHECK(row_add_metric(first, "files_created", 200107, "files") == 0);
	CHECK(row_add_metric(first, "dirs", 3, NULL) == 0);
	CHECK(row_metric(first, "files_created") &&
	      row_metric(first, "files_created")->value == 200107);
	CHECK(strcmp(row_metric(first, "dirs")->unit, "") == 0);
	CHECK(row_metric(first, "nope") == NULL);
	CHECK(str_set(&first->note, "hello") == 0 && strcmp(first->note, "hello") == 0);
	CHECK(str_set(&first->note, NULL) == 0 && first->note == NULL);
	CHECK(str_set(&first->rate_unit, "MB/s") == 0);
	first->error = str_printf("%s: %d", "write", 5);
	CHECK(first->error && strcmp(first->error, "write: 5") == 0);
	CHECK(kv_set(&r->options, "quiet", "%d", 1) == 0);
	CHECK(str_set(&r->env.os, "Debian") == 0 && str_set(&r->env.fs_type, "ext4") == 0);
	CHECK(str_set(&r->label, "x") == 0 && str_set(&r->error, "y") == 0);
	run_free(r);
	run_free(NULL);
}

static void t_cmdline(void)
{
	char *argv[] = { "iobattery", "dd", "if=/dev/zero", "of=my file", "it's", "", "a$b",
			 "bs=1M", "--x=a,b:c@d%+" };
	struct run *r = run_new("dd");

	if (!r)
		return;
	CHECK(run_set_cmdline(r, 9, argv) == 0);
	CHECK(strcmp(r->command_line, "iobattery dd if=/dev/zero 'of=my file' 'it'\\''s' '' "
		     "'a$b' bs=1M --x=a,b:c@d%+") == 0);
	CHECK(run_set_cmdline(r, 0, argv) == 0 && strcmp(r->command_line, "") == 0);
	run_free(r);
}

static void t_lat(void)
{
	struct run *r = run_new("dd");
	struct row *w;
	struct hist *h = malloc(sizeof(*h)), *e = malloc(sizeof(*e));
	int i;

	if (!r || !h || !e) {
		CHECK(0);
		return;
	}
	w = run_add_row(r, "dd", "write");
	hist_init(h);
	/* 1..50 ns once each and 1000 twice: small values sit in exact buckets */
	for (i = 1; i <= 50; i++)
		hist_add(h, (uint64_t)i);
	hist_add(h, 1000);
	hist_add(h, 1000);
	row_set_lat(w, h);
	CHECK(w->lat.valid == 1 && w->lat.hist == h);
	CHECK_EQ_U64(w->lat.n, 52);
	CHECK_NEAR(w->lat.mean_ns, (1275.0 + 2000) / 52, 1e-9);
	CHECK_EQ_U64(w->lat.min_ns, 1);
	CHECK_EQ_U64(w->lat.p50_ns, 26);	/* 26th of 52 */
	CHECK_EQ_U64(w->lat.p90_ns, 47);	/* ceil(46.8) = 47th */
	CHECK_EQ_U64(w->lat.p99_ns, 1000);	/* 1000 is in [992, 1008): midpoint 1000 */
	CHECK_EQ_U64(w->lat.p999_ns, 1000);
	CHECK_EQ_U64(w->lat.max_ns, 1000);
	{
		double m = 3275.0 / 52, ss = 0;

		for (i = 1; i <= 50; i++)
			ss += (i - m) * (i - m);
		ss += 2 * (1000 - m) * (1000 - m);
		CHECK_NEAR(w->lat.sd_ns, sqrt(ss / 52), 1e-6);
	}
	/* replacing frees the old histogram; an empty one is not valid */
	hist_init(e);
	row_set_lat(w, e);
	CHECK(w->lat.valid == 0 && w->lat.hist == e && w->lat.n == 0);
	run_free(r);
}

int main(void)
{
	RUN(t_kv);
	RUN(t_rows);
	RUN(t_cmdline);
	RUN(t_lat);
	return test_done();
}
