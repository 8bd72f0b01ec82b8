/* t_import.c - the legacy readers on real outputs: Bonnie++ CSV lines of 1.03 (the
 * seeds' Fedora runs), 1.93c (the seeds' FreeBSD runs, also wrapped in quoted mail) and
 * 2.00a (Debian's bonnie++), PostMark reports, dd and time output, and junk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "import/import.h"
#include "stats/result.h"

static const struct row *find(const struct run *run, const char *phase)
{
	size_t i;

	for (i = 0; i < run->nrows; i++)
		if (!strcmp(run->rows[i]->phase, phase))
			return run->rows[i];
	return NULL;
}

static FILE *devnull(void)
{
	return fopen("/dev/null", "w");
}

static void t_bonnie_103(void)
{
	struct import_set set = { 0 };
	const struct row *w;
	FILE *d = devnull();

	CHECK(import_file(&set, "tests/data/bonnie-103.csv", d) == 4);
	CHECK_EQ_U64(set.skipped, 0);
	if (set.n < 3)
		goto out;
	CHECK(!strcmp(set.runs[0]->env.host, "localhost.localdomain"));
	CHECK(set.runs[0]->flags & RUN_IMPORTED);
	CHECK_EQ_U64(set.runs[0]->nrows, 12);
	w = find(set.runs[0], "putc");
	CHECK(w && w->rate == 24983 && w->cpu.valid && w->cpu.proc_pct == 72);
	CHECK(w && !strcmp(kv_get(&w->params, "char_method"), "putc"));
	CHECK(w && !strcmp(kv_get(&w->params, "size_mb"), "1024"));
	CHECK(w && (w->flags & ROW_IMPORTED));
	w = find(set.runs[0], "seeks");
	CHECK(w && w->rate == 137.5 && !strcmp(w->rate_unit, "seeks/s"));
	w = find(set.runs[0], "seq_create");
	CHECK(w && (w->flags & ROW_NOT_MEASURED) && w->rate == 0);
	w = find(set.runs[2], "seq_create");
	CHECK(w && !(w->flags & ROW_NOT_MEASURED) && w->rate == 3724 && w->cpu.proc_pct == 17);
	w = find(set.runs[2], "ran_del");
	CHECK(w && w->rate == 2290);
	CHECK(strcmp(set.runs[0]->id, set.runs[1]->id) != 0);
out:
	import_set_free(&set);
	fclose(d);
}

static void t_bonnie_193c(void)
{
	struct import_set set = { 0 };
	const struct row *w;
	const struct metric *m;
	FILE *d = devnull();

	CHECK(import_file(&set, "tests/data/bonnie-193c.csv", d) == 2);
	if (set.n < 1)
		goto out;
	CHECK(!strcmp(set.runs[0]->env.tool_version, "bonnie++ 1.93c"));
	CHECK(set.runs[0]->env.date && !strcmp(set.runs[0]->env.date, "2005-01-20T20:24:30Z"));
	w = find(set.runs[0], "put_block");
	CHECK(w && w->rate == 14394 && w->cpu.proc_pct == 5);
	CHECK(w && !strcmp(kv_get(&w->params, "size_mb"), "2048"));
	CHECK(w && !strcmp(kv_get(&w->params, "chunk"), "8192"));
	m = w ? row_metric(w, "latency_max") : NULL;
	CHECK(m && m->value == 284e6);
	w = find(set.runs[0], "putc");
	CHECK(w && !strcmp(kv_get(&w->params, "char_method"), "syscall"));
	w = find(set.runs[0], "ran_del");
	m = w ? row_metric(w, "latency_max") : NULL;
	CHECK(w && (w->flags & ROW_NOT_MEASURED) && m && m->value == 46821e3);
	import_set_free(&set);

	/* the same seed, as mailed: quoted, wrapped at 80 columns, amid bonnie++'s table */
	CHECK(import_file(&set, "tests/data/bonnie-193c-mail.txt", d) == 1);
	if (set.n < 1)
		goto out;
	w = find(set.runs[0], "get_block");
	CHECK(w && w->rate == 45572);
	w = find(set.runs[0], "ran_del");
	m = w ? row_metric(w, "latency_max") : NULL;
	CHECK(m && m->value == 1270e3);	/* "12" + "70us" joined back */
out:
	import_set_free(&set);
	fclose(d);
}

static void t_bonnie_200a(void)
{
	struct import_set set = { 0 };
	const struct row *w;
	FILE *d = devnull();

	CHECK(import_file(&set, "tests/data/bonnie-200a.csv", d) == 2);
	CHECK_EQ_U64(set.skipped, 0);
	if (set.n < 2)
		goto out;
	CHECK(!strcmp(set.runs[0]->env.tool_version, "bonnie++ 2.00a"));
	w = find(set.runs[0], "putc");
	CHECK(w && w->rate == 3454 && w->cpu.proc_pct == 93);
	CHECK(w && !strcmp(kv_get(&w->params, "size_mb"), "64"));
	w = find(set.runs[0], "put_block");
	CHECK(w && (w->flags & ROW_NOT_MEASURED) && !w->cpu.valid);
	w = find(set.runs[0], "seeks");
	CHECK(w && !strcmp(kv_get(&w->params, "seekers"), "5") &&
	      !strcmp(kv_get(&w->params, "seeks"), "8192"));
	w = find(set.runs[1], "ran_create");
	CHECK(w && w->rate == 3881);
	CHECK(w && !strcmp(kv_get(&w->params, "files_spec"), "2:1024") &&
	      !strcmp(kv_get(&w->params, "files"), "2"));
out:
	import_set_free(&set);
	fclose(d);
}

static void t_postmark(void)
{
	struct import_set set = { 0 };
	const struct row *w;
	const struct metric *m;
	FILE *d = devnull();

	CHECK(import_file(&set, "tests/data/postmark-seed.txt", d) == 2);
	CHECK_EQ_U64(set.skipped, 0);
	if (set.n < 2)
		goto out;
	w = find(set.runs[0], "transactions");
	CHECK(w && w->rate == 328 && !strcmp(w->rate_unit, "tps"));
	CHECK(w && w->elapsed_ns == 1219000000000ull);
	CHECK(w && !strcmp(kv_get(&w->params, "size_high"), "100000"));
	CHECK(w && !strcmp(kv_get(&w->params, "transactions"), "400000"));
	CHECK(w && !strcmp(kv_get(&w->params, "number"), "500"));
	m = w ? row_metric(w, "files_created") : NULL;
	CHECK(m && m->value == 200107);
	m = w ? row_metric(w, "deleted_mixed") : NULL;
	CHECK(m && m->value == 199218);
	w = find(set.runs[0], "create_alone");
	CHECK(w && w->rate == 500 && w->ops == 500 && !strcmp(w->rate_unit, "files/s"));
	w = find(set.runs[0], "delete_alone");
	CHECK(w && w->rate == 889 && !strcmp(kv_get(&w->params, "direct"), "false"));
	w = find(set.runs[1], "data_written");
	CHECK(w && w->rate == 4.51 && !strcmp(w->rate_unit, "MiB/s"));
	import_set_free(&set);

	CHECK(import_file(&set, "tests/data/postmark-151.txt", d) == 1);
	if (set.n < 1)
		goto out;
	CHECK(!strcmp(set.runs[0]->env.tool_version, "postmark 1.51"));
	w = find(set.runs[0], "transactions");
	CHECK(w && w->rate == 500 && !strcmp(kv_get(&w->params, "number"), "200"));
	import_set_free(&set);

	CHECK(import_file(&set, "tests/data/postmark-terse.txt", d) == 1);
	if (set.n < 1)
		goto out;
	w = find(set.runs[0], "transactions");
	CHECK(w && w->rate == 1000);
	w = find(set.runs[0], "data_read");
	CHECK_NEAR(w ? w->rate : 0, 29335350.0 / 1048576, 1e-9);
out:
	import_set_free(&set);
	fclose(d);
}

static void t_dd_time(void)
{
	struct import_set set = { 0 };
	const struct row *w;
	FILE *d = devnull();

	/* BSD: "1073741824 bytes transferred in 71.807645 secs", then "71.82real ..." */
	CHECK(import_file(&set, "tests/data/dd-time-bsd.txt", d) >= 3);
	if (set.n < 3)
		goto out;
	w = set.runs[0]->rows[0];
	CHECK(!strcmp(w->workload, "dd") && !strcmp(w->phase, "write"));
	CHECK_EQ_U64(w->bytes, 1073741824);
	CHECK_EQ_U64(w->elapsed_ns, 71807645000ull);
	CHECK_EQ_U64(w->ops, 1048576);
	CHECK(!strcmp(kv_get(&w->params, "bs"), "1024"));
	CHECK_NEAR(w->rate, 1073741824 / 71.807645 / 1e6, 1e-9);
	CHECK(w->cpu.valid && w->cpu.user_s == 0.68 && w->cpu.sys_s == 8.83);
	import_set_free(&set);

	/* bash's time after records only: bytes from bs x records, elapsed from real */
	CHECK(import_file(&set, "tests/data/time-bash.txt", d) == 4);
	if (set.n < 4)
		goto out;
	w = set.runs[0]->rows[0];
	CHECK(!strcmp(w->phase, "write"));
	CHECK_EQ_U64(w->bytes, 1073741824);
	CHECK_EQ_U64(w->elapsed_ns, 24270000000ull);
	w = set.runs[3]->rows[0];
	CHECK(!strcmp(w->workload, "time") && !strcmp(w->phase, "cp"));
	CHECK_EQ_U64(w->elapsed_ns, 152022000000ull);
	import_set_free(&set);

	CHECK(import_file(&set, "tests/data/dd-bsd-read.txt", d) == 1);
	if (set.n < 1)
		goto out;
	w = set.runs[0]->rows[0];
	CHECK(!strcmp(w->phase, "read") && !strcmp(kv_get(&w->params, "bs"), "8192"));
out:
	import_set_free(&set);
	fclose(d);
}

static void t_junk(void)
{
	struct import_set set = { 0 };
	FILE *d = tmpfile();
	char buf[2048];
	size_t n;

	set.verbose = 1;	/* the list of skipped lines: --verbose */
	CHECK(import_file(&set, "tests/data/junk.txt", d) == 0);
	CHECK(set.skipped >= 4);
	rewind(d);
	n = fread(buf, 1, sizeof(buf) - 1, d);
	buf[n] = '\0';
	CHECK(strstr(buf, "skipped line 1: 'tests/data/junk.txt'") != NULL);
	CHECK(strstr(buf, "line 3") && strstr(buf, "fields"));
	import_set_free(&set);
	CHECK(import_text(&set, "", "empty", d) == 0);
	CHECK(import_file(&set, "tests/data/does-not-exist", d) < 0);
	fclose(d);
}

/* time's line must end in its words: a third figure without "sys" after it, figures
 * past what the loader takes, GNU's elapsed without its word: not time output. */
static void t_time_bounds(void)
{
	struct import_set set = { 0 };
	FILE *d = devnull();

	CHECK(import_text(&set, "136.85 real 1.29 user 1844674407370955/1616 / 60 = 2.28\n",
			  "t", d) == 0);
	CHECK(import_text(&set, "5e12 real 1.29 user 2.00 sys\n", "t", d) == 0);
	CHECK(import_text(&set, "0.001 real 9e9 user 2.00 sys\n", "t", d) == 0);
	CHECK(import_text(&set, "0.68user 8.83system 1:11.82 12%CPU\n", "t", d) == 0);
	CHECK(set.n == 0);
	CHECK(import_text(&set, "71.82 real 0.68 user 8.83 sys\n", "t", d) == 1);
	CHECK(set.n == 1 && set.runs[0]->rows[0]->cpu.sys_s == 8.83);
	CHECK(import_text(&set, "0.68user 8.83system 1:11.82elapsed 12%CPU\n", "t", d) == 1);
	import_set_free(&set);
	fclose(d);
}

int main(void)
{
	RUN(t_bonnie_103);
	RUN(t_bonnie_193c);
	RUN(t_bonnie_200a);
	RUN(t_postmark);
	RUN(t_dd_time);
	RUN(t_junk);
	RUN(t_time_bounds);
	return test_done();
}
