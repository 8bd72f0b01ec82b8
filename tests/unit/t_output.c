/* t_output.c - the text and CSV formatters: lookup, CSV quoting and columns, the text
 * blocks and the summary table, and write errors reported as -EIO; the report's verdict
 * section and the text verdict. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/html.h"
#include "output/output.h"
#include "output/verdict_out.h"
#include "stats/flags.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "test.h"

static struct run *small_run(void)
{
	struct run *r = run_new("battery");
	struct row *w;
	struct hist *h;

	str_set(&r->env.tool_version, "0.1.0");
	str_set(&r->env.host, "box");
	str_set(&r->env.target, "/tmp/x");
	str_set(&r->env.fs_type, "ext4");
	w = run_add_row(r, "demo", "write");
	kv_set(&w->params, "bs", "1M");
	w->bytes = 1000000000;
	w->ops = 1000;
	w->elapsed_ns = 2000000000;
	w->durable_ns = 2000000000;
	w->buffered_ns = 1500000000;
	w->rate = 500;
	str_set(&w->rate_unit, "MB/s");
	w->cpu.valid = 1;
	w->cpu.proc_pct = 12.5;
	w->cpu.user_s = 0.01;
	w->cpu.sys_s = 0.24;
	w->cpu.sys_busy_pct = 30;
	w->cpu.cpu_ns_per_op = 250000;
	h = malloc(sizeof(*h));
	hist_init(h);
	for (int i = 0; i < 1000; i++)
		hist_add(h, 1000 + (uint64_t)i);
	row_set_lat(w, h);
	w = run_add_row(r, "cp", "copy");
	w->bytes = 10;
	w->elapsed_ns = 1000;
	w->rate = 10;
	str_set(&w->rate_unit, "MB/s");
	w->cache_pct = 97;
	w->flags = ROW_SHORT | ROW_CACHE_INFLATED;
	str_set(&w->note, "said \"hi\", then left");
	return r;
}

static char *render(const char *fmt, const struct run *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	CHECK(out_write(out_find(fmt), f, r) == 0);
	fclose(f);
	return buf;
}

static void t_find(void)
{
	CHECK(out_find("text") == &out_text);
	CHECK(out_find("json") == &out_json);
	CHECK(out_find("csv") == &out_csv);
	CHECK(out_find("xml") == NULL);
	CHECK(strcmp(result_flag_name(ROW_CACHE_INFLATED), "cache_inflated") == 0);
	CHECK(result_flag_name(1u << 30) == NULL);
}

static void t_csv(void)
{
	struct run *r = small_run();
	char *s = render("csv", r), *line2, *line3;
	int commas = 0;

	CHECK(strncmp(s, "run_id,workload,phase,", 22) == 0);
	line2 = strchr(s, '\n') + 1;
	line3 = strchr(line2, '\n') + 1;
	for (char *p = s; *p != '\n'; p++)
		commas += *p == ',';
	CHECK(commas == 27);
	CHECK(strstr(line2, ",demo,write,0,bs=1M,1000000000,1000,2.000000000,1.500000000,"
		      "2.000000000,500.000,MB/s,") != NULL);
	CHECK(strstr(line3, ",97.0,short|cache_inflated,,\"said \"\"hi\"\", then left\"\n") !=
	      NULL);
	free(s);
	run_free(r);
}

static void t_text(void)
{
	struct run *r = small_run();
	char *s = render("text", r);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(strncmp(s, "iobattery 0.1.0 - box - ", 24) == 0);	/* two workloads */
	CHECK(strstr(s, "demo write: 500 MB/s (1000000000 bytes in ") != NULL);
	CHECK(strstr(s, "  cpu: 12.5% process (user 0.01 s, sys 0.24 s), system busy 30.0%")
	      != NULL);
	CHECK(strstr(s, "  latency: p50 ") != NULL && strstr(s, "(n=1000)") != NULL);
	CHECK(strstr(s, "  short: ran under 0.5 s") != NULL);
	CHECK(strstr(s, "  cache: 97% resident") != NULL);
	free(s);
	f = open_memstream(&buf, &len);
	CHECK(out_text_table(f, r) == 0);
	fclose(f);
	CHECK(strncmp(buf, "workload  phase", 15) == 0);
	CHECK(strstr(buf, "500 MB/s") != NULL);
	CHECK(strstr(buf, "short,cache_inflated") != NULL);
	free(buf);
	run_free(r);
}

static void t_write_error(void)
{
	struct run *r = small_run();
	FILE *f = fopen("/dev/full", "w");

	if (f) {
		CHECK(out_write(&out_json, f, r) < 0);
		fclose(f);
	}
	run_free(r);
}

/* The report and the text verdict of a battery of two configurations, one named with
 * markup: the verdict first, every name escaped, the trust count over rows, every flag
 * in the legend by its one name. */
static void t_verdict_html(void)
{
	struct run *r = small_run();
	const char *name = "run";
	char *buf = NULL, tr[96];
	size_t len = 0, i;
	FILE *f;

	for (i = 0; i < r->nrows; i++) {
		kv_set(&r->rows[i]->params, RK_ROW_FS_CONFIG, "%s", i ? "<b>xfs" : "ext4");
		kv_set(&r->rows[i]->params, RK_ROW_FS, "%s", i ? "xfs" : "ext4");
	}
	f = open_memstream(&buf, &len);
	CHECK(f && html_report(f, &r, &name, 1, "t") == 0);
	fclose(f);
	CHECK(strstr(buf, "name=\"viewport\"") != NULL);
	CHECK(strstr(buf, "id=\"verdict\"") && strstr(buf, "id=\"verdict\"") <
	      strstr(buf, "id=\"summary\""));
	CHECK(strstr(buf, "<b>xfs") == NULL && strstr(buf, "&lt;b&gt;xfs") != NULL);
	/* one row of two has no flag */
	snprintf(tr, sizeof(tr), "data-clean=\"1\" data-rows=\"2\"");
	CHECK(strstr(buf, tr) != NULL);
	for (i = 0; flag_table[i].name; i++) {
		char dt[96];

		snprintf(dt, sizeof(dt), "<dt data-flag=\"%s\">", flag_table[i].name);
		CHECK(strstr(buf, dt) != NULL);
	}
	/* nothing imported: the +++++ sentence is not said */
	CHECK(strstr(buf, "in an imported run: the tool printed no figure") == NULL);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(f && out_text_verdict(f, &r, NULL, 1) == 0);
	fclose(f);
	CHECK(!strncmp(buf, "verdict for a database server:", 30));
	free(buf);
	run_free(r);
}

int main(void)
{
	RUN(t_find);
	RUN(t_csv);
	RUN(t_text);
	RUN(t_write_error);
	RUN(t_verdict_html);
	return test_done();
}
