/* csv.c - one header line, then one line per row. Fields are quoted as RFC 4180 says
 * (double quotes around a field holding a comma, quote, CR or LF; quotes doubled);
 * lines end in LF. A value that does not apply is an empty field. Times in seconds,
 * latencies in microseconds; the column list is in docs/results-schema.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/iozone_out.h"
#include "output/output.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static const char csv_header[] =
	"run_id,workload,phase,repeat,params,bytes,ops,elapsed_s,buffered_s,durable_s,"
	"rate,rate_unit,user_s,sys_s,proc_pct,sys_busy_pct,cpu_ns_per_op,"
	"lat_n,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_p999_us,lat_max_us,"
	"cache_pct,flags,error,note,fs,mkfs_options,mount_options,kernel,device\n";

void out_csv_field(FILE *f, const char *s, char sep)
{
	if (s && strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else if (s) {
		fputs(s, f);
	}
	if (sep)
		fputc(sep, f);
}

static void csv_u64(FILE *f, uint64_t v)
{
	fprintf(f, "%llu,", (unsigned long long)v);
}

/* ns as seconds with every digit kept; 0 is "not applicable" when na0. */
static void csv_sec(FILE *f, uint64_t ns, int na0)
{
	if (!(na0 && ns == 0))
		fprintf(f, "%llu.%09llu", (unsigned long long)(ns / 1000000000u),
			(unsigned long long)(ns % 1000000000u));
	fputc(',', f);
}

/* v with prec decimals, or an empty field when not valid (or NaN). */
static void csv_num(FILE *f, int valid, int prec, double v)
{
	if (valid && v == v)
		fprintf(f, "%.*f", prec, v);
	fputc(',', f);
}

static void csv_us(FILE *f, int valid, double ns)
{
	csv_num(f, valid, 3, ns / 1000.0);
}

static void csv_params(FILE *f, const struct kvlist *l)
{
	size_t len = 0;
	char *buf = NULL;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		fputc(',', f);
		return;
	}
	for (size_t i = 0; i < l->n; i++)
		fprintf(m, "%s%s=%s", i ? ";" : "", l->v[i].key,
			l->v[i].value ? l->v[i].value : "");
	if (fclose(m) == 0)
		out_csv_field(f, buf, ',');
	else
		fputc(',', f);
	free(buf);
}

static void csv_flags(FILE *f, unsigned flags)
{
	int first = 1;
	char buf[256] = "";

	for (unsigned i = 0; i < 32; i++) {
		const char *n = result_flag_name(1u << i);

		if (!(flags & (1u << i)) || !n)
			continue;
		if (!first)
			strncat(buf, "|", sizeof(buf) - strlen(buf) - 1);
		strncat(buf, n, sizeof(buf) - strlen(buf) - 1);
		first = 0;
	}
	out_csv_field(f, buf, ',');
}

/* The configuration a row belongs to: a battery's --fs matrix sets it per row (the file
 * system made on a loop device over a file on the run's device); any other row has the
 * run's target's. */
static void csv_conf(FILE *f, const struct run *run, const struct row *w)
{
	const struct env *e = &run->env;
	const char *fs = kv_get(&w->params, RK_ROW_FS);
	char dev[256];

	if (fs) {
		snprintf(dev, sizeof(dev), "loop over a file on %s", e->device ? e->device : "?");
		out_csv_field(f, fs, ',');
		out_csv_field(f, kv_get(&w->params, RK_ROW_MKFS_OPTIONS), ',');
		out_csv_field(f, kv_get(&w->params, RK_ROW_MOUNT_OPTIONS), ',');
	} else {
		snprintf(dev, sizeof(dev), "%s", e->device ? e->device : "");
		out_csv_field(f, e->fs_type, ',');
		out_csv_field(f, NULL, ',');
		out_csv_field(f, e->mount_opts, ',');
	}
	out_csv_field(f, e->kernel, ',');
	out_csv_field(f, dev, '\n');
}

static int csv_begin(FILE *f, const struct run *run)
{
	if (csv_iozone_run(run))	/* iozone's matrix: a tidy table of its own */
		return csv_iozone_begin(f, run);
	return fputs(csv_header, f) == EOF ? -EIO : 0;
}

static int csv_row(FILE *f, const struct run *run, const struct row *w)
{
	const struct row_cpu *c = &w->cpu;
	const struct row_lat *l = &w->lat;

	if (csv_iozone_run(run))
		return csv_iozone_row(f, run, w);
	out_csv_field(f, run->id, ',');
	out_csv_field(f, w->workload, ',');
	out_csv_field(f, w->phase, ',');
	fprintf(f, "%u,", w->repeat);
	csv_params(f, &w->params);
	csv_u64(f, w->bytes);
	csv_u64(f, w->ops);
	csv_sec(f, w->elapsed_ns, 0);
	csv_sec(f, w->buffered_ns, 1);
	csv_sec(f, w->durable_ns, 1);
	csv_num(f, !(w->flags & ROW_NOT_MEASURED), 3, w->rate);
	out_csv_field(f, w->rate_unit, ',');
	csv_num(f, c->valid, 3, c->user_s);
	csv_num(f, c->valid, 3, c->sys_s);
	csv_num(f, c->valid, 1, c->proc_pct);
	csv_num(f, c->valid, 1, c->sys_busy_pct);
	csv_num(f, c->valid && w->ops, 1, c->cpu_ns_per_op);
	if (l->valid)
		csv_u64(f, l->n);
	else
		fputc(',', f);
	csv_us(f, l->valid, l->mean_ns);
	csv_us(f, l->valid, (double)l->p50_ns);
	csv_us(f, l->valid, (double)l->p90_ns);
	csv_us(f, l->valid, (double)l->p99_ns);
	csv_us(f, l->valid, (double)l->p999_ns);
	csv_us(f, l->valid, (double)l->max_ns);
	csv_num(f, w->cache_pct >= 0, 1, w->cache_pct);
	csv_flags(f, w->flags);
	out_csv_field(f, w->error, ',');
	out_csv_field(f, w->note, ',');
	csv_conf(f, run, w);
	return ferror(f) ? -EIO : 0;
}

static int csv_end(FILE *f, const struct run *run)
{
	(void)run;
	return ferror(f) ? -EIO : 0;
}

const struct out_fmt out_csv = {
	.name = "csv",
	.ext = "csv",
	.begin = csv_begin,
	.row = csv_row,
	.end = csv_end,
};
