/* t_json.c - the JSON form of a run: dump -> load -> dump gives the same text with every
 * field set, loaded figures equal the originals, and foreign, truncated or newer
 * documents are refused with a reason. */
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "test.h"
#include "sys_fill.h"

static struct run *full_run(void)
{
	struct run *r = run_new("dd");
	struct row *w;
	struct hist *h;

	if (!r)
		return NULL;
	str_set(&r->label, "laptop \"nvme\", ext4");
	str_set(&r->command_line, "iobattery dd if=/dev/zero of=tstfile bs=1024 count=1M");
	str_set(&r->error, "one phase failed");
	r->status = 1;
	r->flags = RUN_INCOMPLETE | RUN_IMPORTED;
	kv_set(&r->options, "bs", "%d", 1024);
	kv_set(&r->options, "count", "%s", "1M");
	str_set(&r->env.tool_version, "0.1.0");
	str_set(&r->env.date, "2024-05-06T07:08:09Z");
	str_set(&r->env.host, "box");
	str_set(&r->env.os, "Linux (Debian GNU/Linux 12 (bookworm))");
	str_set(&r->env.kernel, "6.1.0-18-amd64");
	str_set(&r->env.arch, "x86_64");
	str_set(&r->env.cpu_model, "Some CPU @ 2.40GHz");
	r->env.ncpu = 8;
	r->env.ram_bytes = 16ull << 30;
	str_set(&r->env.target, "/home/u/scratch");
	str_set(&r->env.fs_type, "ext4");
	str_set(&r->env.mount_opts, "rw,relatime");
	str_set(&r->env.mount_point, "/home");
	str_set(&r->env.device, "nvme0n1");
	str_set(&r->env.device_model, "Samsung SSD 980");
	r->env.rotational = 0;
	str_set(&r->env.scheduler, "none");
	r->env.virtualized = 1;

	w = run_add_row(r, "dd", "write");
	w->repeat = 2;
	kv_set(&w->params, "bs", "1024");
	kv_set(&w->params, "conv", "fdatasync");
	w->bytes = 1073741824ull;
	w->ops = 1048576;
	w->elapsed_ns = 1234567891;
	w->buffered_ns = 1100000000;
	w->durable_ns = 1234567891;
	w->rate = 1073741824.0 / 1.234567891 / 1e6;
	str_set(&w->rate_unit, "MB/s");
	w->cpu.valid = 1;
	w->cpu.user_s = 0.013;
	w->cpu.sys_s = 0.1537;
	w->cpu.proc_pct = (0.013 + 0.1537) / 1.234567891 * 100;
	w->cpu.sys_busy_pct = 25.0 / 3;
	w->cpu.sys_busy_s = 2.2;
	w->cpu.cpu_ns_per_op = 158.97;
	h = malloc(sizeof(*h));
	hist_init(h);
	for (uint64_t v = 1; v < 2000000; v = v * 3 + 7)
		hist_add(h, v);
	hist_add(h, 900);
	hist_add(h, 900);
	row_set_lat(w, h);
	w->cache_pct = 97.25;
	w->cache_dropped = 1;
	w->flags = ROW_SHORT | ROW_CACHE_INFLATED | ROW_INCOMPLETE | ROW_FAILED |
		   ROW_TOO_FAST | ROW_INCONSISTENT | ROW_IMPORTED | ROW_NOT_MEASURED;
	str_set(&w->error, "write: 'tstfile': No space left on device");
	str_set(&w->note, "cache: 97% resident - this measured RAM, not the disk");
	row_add_metric(w, "records_in", 1048576, "records");
	row_add_metric(w, "ratio", 1.0 / 3, "x");
	sys_fill(w);

	w = run_add_row(r, "cp", "copy");	/* mostly empty: nulls everywhere */
	return r;
}

static void t_round_trip(void)
{
	struct run *r = full_run(), *back;
	char err[256] = "";
	char *a, *b;

	CHECK(r != NULL);
	if (!r)
		return;
	a = result_json_dump(r);
	CHECK(a != NULL);
	back = result_json_load(a, err, sizeof(err));
	if (!back)
		fprintf(stderr, "load: %s\n", err);
	CHECK(back != NULL);
	if (!back) {
		free(a);
		run_free(r);
		return;
	}
	b = result_json_dump(back);
	CHECK(b != NULL && strcmp(a, b) == 0);
	if (b && strcmp(a, b) != 0)
		fprintf(stderr, "first:\n%s\nsecond:\n%s\n", a, b);

	CHECK(strcmp(back->id, r->id) == 0);
	CHECK(back->flags == r->flags);
	CHECK(back->status == 1);
	CHECK(back->nrows == 2);
	CHECK(back->env.rotational == 0 && back->env.virtualized == 1);
	CHECK_EQ_U64(back->env.ram_bytes, 16ull << 30);
	CHECK(strcmp(kv_get(&back->options, "count"), "1M") == 0);
	CHECK_EQ_U64(back->rows[0]->bytes, r->rows[0]->bytes);
	CHECK_EQ_U64(back->rows[0]->durable_ns, 1234567891);
	CHECK(back->rows[0]->flags == r->rows[0]->flags);
	CHECK(back->rows[0]->cache_dropped == 1);
	CHECK_NEAR(back->rows[0]->cache_pct, 97.25, 0);
	CHECK_EQ_U64(back->rows[0]->lat.p99_ns, r->rows[0]->lat.p99_ns);
	CHECK(back->rows[0]->lat.hist != NULL);
	if (back->rows[0]->lat.hist) {
		const struct hist *h0 = r->rows[0]->lat.hist, *h1 = back->rows[0]->lat.hist;

		CHECK_EQ_U64(h1->n, h0->n);
		CHECK_EQ_U64(h1->min, h0->min);
		CHECK_EQ_U64(h1->max, h0->max);
		CHECK(memcmp(h1->b, h0->b, sizeof(h0->b)) == 0);
	}
	CHECK(back->rows[0]->nmetrics == 2);
	CHECK(back->rows[1]->cache_pct < 0);
	CHECK(!back->rows[1]->lat.valid && !back->rows[1]->cpu.valid);
	CHECK(back->rows[1]->error == NULL && back->rows[1]->note == NULL);
	/* the system figures and the series, values and nulls */
	CHECK(back->rows[0]->sys && back->rows[0]->series);
	CHECK(!back->rows[1]->sys && !back->rows[1]->series);
	if (back->rows[0]->sys && back->rows[0]->series) {
		const struct row_sys *s0 = r->rows[0]->sys, *s1 = back->rows[0]->sys;
		const struct row_series *e0 = r->rows[0]->series, *e1 = back->rows[0]->series;

		CHECK(s1->ndev == 2 && !strcmp(s1->dev[1].role, "disk"));
		CHECK_NEAR(s1->dev[0].v[RSD_UTIL], s0->dev[0].v[RSD_UTIL], 1e-12);
		CHECK(isnan(s1->dev[1].v[RSD_F_S]) && isnan(s1->v[RS_WRITE_AMP]));
		CHECK(s1->nwait == 2 && s1->wait[0].state == 'D' && s1->wchan_hidden == 0);
		CHECK(e1->n == 3 && e1->ndev == 2 && e1->interval_ns == e0->interval_ns);
		CHECK(e1->v[RSE_BYTES][1] == e0->v[RSE_BYTES][1] && isnan(e1->v[RSE_P99][2]));
		CHECK(!strcmp(e1->dev[1].name, "sda \"2\""));
	}
	CHECK(strstr(a, "\"system\": null") && strstr(a, "\"series\": null"));
	CHECK(strstr(a, "\"schema_version\": 1") != NULL);
	CHECK(strstr(a, "\"tool\": \"iobattery\"") != NULL);
	free(a);
	free(b);
	run_free(back);
	run_free(r);
}

static void refuse(const char *text, const char *want)
{
	char err[256] = "";
	struct run *r = result_json_load(text, err, sizeof(err));

	CHECK(r == NULL);
	if (r)
		run_free(r);
	CHECK(strstr(err, want) != NULL);
	if (!strstr(err, want))
		fprintf(stderr, "got '%s', wanted '%s'\n", err, want);
}

static void t_refusals(void)
{
	struct run *r = full_run();
	char *a = r ? result_json_dump(r) : NULL;
	char *p;

	refuse("{\"tool\": \"fio\", \"schema_version\": 1}", "not an iobattery result");
	refuse("{\"schema_version\": 1}", "not an iobattery result");
	refuse("{\"tool\": \"iobattery\", \"schema_version\": \"1\"}", "not an iobattery result");
	refuse("[1, 2]", "not an iobattery result");
	refuse("", "malformed JSON at line");
	refuse("{\"tool\": \"iobattery\", \"schema_version\": 2, \"rows\": []}", "newer");
	refuse("{\"tool\": \"iobattery\", \"schema_version\": 1, \"rows\": [{\"bytes\": \"x\"}]}",
	       "'rows[0].bytes'");
	CHECK(a != NULL);
	if (a) {
		a[strlen(a) / 2] = '\0';	/* truncated */
		refuse(a, "malformed JSON at line");
		free(a);
	}
	a = r ? result_json_dump(r) : NULL;
	if (a) {
		p = strstr(a, "\"schema_version\": 1");
		CHECK(p != NULL);
		if (p) {
			p[strlen("\"schema_version\": ")] = '9';
			refuse(a, "newer");
		}
		free(a);
	}
	run_free(r);
}

static void t_load_file(void)
{
	char err[256] = "";
	struct run *r = result_json_load_file("/nonexistent/iob.json", err, sizeof(err));

	CHECK(r == NULL);
	CHECK(err[0] != '\0');
}

int main(void)
{
	RUN(t_round_trip);
	RUN(t_refusals);
	RUN(t_load_file);
	return test_done();
}
