/* json.c - the JSON form of a run (jansson): the formatter, and the dump/load pair that
 * the store, the comparisons and the importers use. docs/results-schema.md describes the
 * document. Loading stores every figure as written and recomputes nothing; dumping a
 * loaded run gives the same text back. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "output/output.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define JSON_FLAGS	(JSON_INDENT(2) | JSON_REAL_PRECISION(15))

#define NFLAGS 32u	/* bits of row->flags; result_flag_name() names the known ones */

/* ---- dumping ---- */

/* Builders that never return NULL on bad input (NULL string, NaN): they give null. A
 * failed allocation makes set() fail, which the callers count. */
static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

/* Set key and count failures in *bad. */
static void set(json_t *obj, const char *key, json_t *v, int *bad)
{
	if (!v || json_object_set_new(obj, key, v) < 0)
		(*bad)++;
}

static void push(json_t *arr, json_t *v, int *bad)
{
	if (!v || json_array_append_new(arr, v) < 0)
		(*bad)++;
}

static json_t *kv_to_json(const struct kvlist *l, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		(*bad)++;
		return NULL;
	}
	for (size_t i = 0; i < l->n; i++)
		set(o, l->v[i].key, jstr(l->v[i].value), bad);
	return o;
}

static json_t *env_to_json(const struct env *e, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, "tool_version", jstr(e->tool_version), bad);
	set(o, "date", jstr(e->date), bad);
	set(o, "host", jstr(e->host), bad);
	set(o, "os", jstr(e->os), bad);
	set(o, "kernel", jstr(e->kernel), bad);
	set(o, "arch", jstr(e->arch), bad);
	set(o, "cpu_model", jstr(e->cpu_model), bad);
	set(o, "ncpu", e->ncpu ? jint(e->ncpu) : json_null(), bad);
	set(o, "ram_bytes", e->ram_bytes ? jint(e->ram_bytes) : json_null(), bad);
	set(o, "target", jstr(e->target), bad);
	set(o, "fs_type", jstr(e->fs_type), bad);
	set(o, "mount_opts", jstr(e->mount_opts), bad);
	set(o, "mount_point", jstr(e->mount_point), bad);
	set(o, "device", jstr(e->device), bad);
	set(o, "device_model", jstr(e->device_model), bad);
	set(o, "rotational", e->rotational < 0 ? json_null() : json_boolean(e->rotational),
	    bad);
	set(o, "scheduler", jstr(e->scheduler), bad);
	set(o, "virtualized", e->virtualized < 0 ? json_null() :
	    json_boolean(e->virtualized), bad);
	return o;
}

static json_t *cpu_to_json(const struct row_cpu *c, int *bad)
{
	json_t *o;

	if (!c->valid)
		return json_null();
	o = json_object();
	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, "user_s", jreal(c->user_s), bad);
	set(o, "sys_s", jreal(c->sys_s), bad);
	set(o, "proc_pct", jreal(c->proc_pct), bad);
	set(o, "sys_busy_pct", jreal(c->sys_busy_pct), bad);
	set(o, "sys_busy_s", jreal(c->sys_busy_s), bad);
	set(o, "cpu_ns_per_op", jreal(c->cpu_ns_per_op), bad);
	return o;
}

static json_t *hist_to_json(const struct hist *h, int *bad)
{
	json_t *a;

	if (!h)
		return json_null();
	a = json_array();
	if (!a) {
		(*bad)++;
		return NULL;
	}
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		json_t *pair;

		if (!h->b[i])
			continue;
		pair = json_pack("[II]", (json_int_t)i, (json_int_t)h->b[i]);
		push(a, pair, bad);
	}
	return a;
}

static json_t *lat_to_json(const struct row_lat *l, int *bad)
{
	json_t *o;

	if (!l->valid)
		return json_null();
	o = json_object();
	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, "n", jint(l->n), bad);
	set(o, "mean_ns", jreal(l->mean_ns), bad);
	set(o, "sd_ns", jreal(l->sd_ns), bad);
	set(o, "min_ns", jint(l->min_ns), bad);
	set(o, "p50_ns", jint(l->p50_ns), bad);
	set(o, "p90_ns", jint(l->p90_ns), bad);
	set(o, "p99_ns", jint(l->p99_ns), bad);
	set(o, "p999_ns", jint(l->p999_ns), bad);
	set(o, "max_ns", jint(l->max_ns), bad);
	set(o, "histogram", hist_to_json(l->hist, bad), bad);
	return o;
}

static json_t *row_to_json(const struct row *w, int *bad)
{
	json_t *o = json_object(), *flags, *metrics;

	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, "workload", jstr(w->workload), bad);
	set(o, "phase", jstr(w->phase), bad);
	set(o, "repeat", jint(w->repeat), bad);
	set(o, "params", kv_to_json(&w->params, bad), bad);
	set(o, "bytes", jint(w->bytes), bad);
	set(o, "ops", jint(w->ops), bad);
	set(o, "elapsed_ns", jint(w->elapsed_ns), bad);
	set(o, "buffered_ns", w->buffered_ns ? jint(w->buffered_ns) : json_null(), bad);
	set(o, "durable_ns", w->durable_ns ? jint(w->durable_ns) : json_null(), bad);
	set(o, "rate", jreal(w->rate), bad);
	set(o, "rate_unit", jstr(w->rate_unit), bad);
	set(o, "cpu", cpu_to_json(&w->cpu, bad), bad);
	set(o, "latency", lat_to_json(&w->lat, bad), bad);
	set(o, "cache_pct", w->cache_pct < 0 ? json_null() : jreal(w->cache_pct), bad);
	set(o, "cache_dropped", json_boolean(w->cache_dropped), bad);
	flags = json_array();
	for (unsigned i = 0; flags && i < NFLAGS; i++)
		if ((w->flags & (1u << i)) && result_flag_name(1u << i))
			push(flags, json_string(result_flag_name(1u << i)), bad);
	set(o, "flags", flags, bad);
	set(o, "error", jstr(w->error), bad);
	set(o, "note", jstr(w->note), bad);
	metrics = json_array();
	for (size_t i = 0; metrics && i < w->nmetrics; i++) {
		json_t *m = json_object();

		if (m) {
			set(m, "name", jstr(w->metrics[i].name), bad);
			set(m, "value", jreal(w->metrics[i].value), bad);
			set(m, "unit", jstr(w->metrics[i].unit), bad);
		}
		push(metrics, m, bad);
	}
	set(o, "metrics", metrics, bad);
	return o;
}

static json_t *run_to_json(const struct run *r)
{
	json_t *o = json_object(), *rows;
	int bad = 0;

	if (!o)
		return NULL;
	set(o, "schema_version", json_integer(r->schema_version ? r->schema_version :
					      RESULT_SCHEMA_VERSION), &bad);
	set(o, "tool", json_string("iobattery"), &bad);
	set(o, "id", jstr(r->id), &bad);
	set(o, "label", jstr(r->label), &bad);
	set(o, "workload", jstr(r->workload), &bad);
	set(o, "command_line", jstr(r->command_line), &bad);
	set(o, "status", json_integer(r->status), &bad);
	set(o, "incomplete", json_boolean(r->flags & RUN_INCOMPLETE), &bad);
	set(o, "imported", json_boolean(r->flags & RUN_IMPORTED), &bad);
	set(o, "error", jstr(r->error), &bad);
	set(o, "options", kv_to_json(&r->options, &bad), &bad);
	set(o, "env", env_to_json(&r->env, &bad), &bad);
	rows = json_array();
	for (size_t i = 0; rows && i < r->nrows; i++)
		push(rows, row_to_json(r->rows[i], &bad), &bad);
	set(o, "rows", rows, &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

char *out_json_dump(const struct run *run)
{
	json_t *o = run_to_json(run);
	char *s;

	if (!o)
		return NULL;
	s = json_dumps(o, JSON_FLAGS);
	json_decref(o);
	return s;
}

static int json_begin(FILE *f, const struct run *run)
{
	(void)f;
	(void)run;
	return 0;
}

static int json_row(FILE *f, const struct run *run, const struct row *row)
{
	(void)f;
	(void)run;
	(void)row;
	return 0;
}

/* The whole run as one document, written at the end. */
static int json_end(FILE *f, const struct run *run)
{
	char *s = out_json_dump(run);
	int rc = 0;

	if (!s)
		return -ENOMEM;
	if (fputs(s, f) == EOF || fputc('\n', f) == EOF)
		rc = -EIO;
	free(s);
	return rc;
}

const struct out_fmt out_json = {
	.name = "json",
	.ext = "json",
	.begin = json_begin,
	.row = json_row,
	.end = json_end,
};

/* ---- loading ---- */

/* Load context: the first problem found wins. */
struct jload {
	char *err;
	unsigned long errlen;
	int failed;
	const char *where;		/* "env", "rows[3]" ... */
};

static void jfail(struct jload *c, const char *key, const char *what)
{
	if (c->failed++)
		return;
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "'%s%s%s': %s", c->where, *c->where ? "." : "",
			 key, what);
}

/* String member into *dst (replaced): a copy, or NULL when null or absent. */
static void get_str(struct jload *c, const json_t *o, const char *key, char **dst)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v)) {
		str_set(dst, NULL);
		return;
	}
	if (!json_is_string(v)) {
		jfail(c, key, "expected a string");
		return;
	}
	if (str_set(dst, json_string_value(v)) < 0)
		jfail(c, key, "out of memory");
}

static uint64_t get_u64(struct jload *c, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		jfail(c, key, "expected a non-negative integer");
		return 0;
	}
	return (uint64_t)json_integer_value(v);
}

/* A number (integer or real); def when null or absent. */
static double get_num(struct jload *c, const json_t *o, const char *key, double def)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return def;
	if (!json_is_number(v)) {
		jfail(c, key, "expected a number");
		return def;
	}
	return json_number_value(v);
}

/* true/false (or 1/0) -> 1/0; null or absent -> def. */
static int get_bool(struct jload *c, const json_t *o, const char *key, int def)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return def;
	if (json_is_boolean(v))
		return json_is_true(v);
	if (json_is_integer(v))
		return json_integer_value(v) != 0;
	jfail(c, key, "expected true or false");
	return def;
}

static void get_kv(struct jload *c, const json_t *o, const char *key, struct kvlist *l)
{
	const json_t *obj = json_object_get(o, key), *v;
	const char *k;

	if (!obj || json_is_null(obj))
		return;
	if (!json_is_object(obj)) {
		jfail(c, key, "expected an object");
		return;
	}
	json_object_foreach((json_t *)obj, k, v) {
		if (!json_is_string(v)) {
			jfail(c, key, "expected string values");
			return;
		}
		if (kv_set(l, k, "%s", json_string_value(v)) < 0) {
			jfail(c, key, "out of memory");
			return;
		}
	}
}

static void load_env(struct jload *c, const json_t *o, struct env *e)
{
	e->rotational = -1;
	e->virtualized = -1;
	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		jfail(c, "env", "expected an object");
		return;
	}
	c->where = "env";
	get_str(c, o, "tool_version", &e->tool_version);
	get_str(c, o, "date", &e->date);
	get_str(c, o, "host", &e->host);
	get_str(c, o, "os", &e->os);
	get_str(c, o, "kernel", &e->kernel);
	get_str(c, o, "arch", &e->arch);
	get_str(c, o, "cpu_model", &e->cpu_model);
	e->ncpu = (unsigned)get_u64(c, o, "ncpu");
	e->ram_bytes = get_u64(c, o, "ram_bytes");
	get_str(c, o, "target", &e->target);
	get_str(c, o, "fs_type", &e->fs_type);
	get_str(c, o, "mount_opts", &e->mount_opts);
	get_str(c, o, "mount_point", &e->mount_point);
	get_str(c, o, "device", &e->device);
	get_str(c, o, "device_model", &e->device_model);
	e->rotational = get_bool(c, o, "rotational", -1);
	get_str(c, o, "scheduler", &e->scheduler);
	e->virtualized = get_bool(c, o, "virtualized", -1);
	c->where = "";
}

static void load_cpu(struct jload *c, const json_t *o, struct row_cpu *p)
{
	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		jfail(c, "cpu", "expected an object");
		return;
	}
	p->valid = 1;
	p->user_s = get_num(c, o, "user_s", 0);
	p->sys_s = get_num(c, o, "sys_s", 0);
	p->proc_pct = get_num(c, o, "proc_pct", 0);
	p->sys_busy_pct = get_num(c, o, "sys_busy_pct", 0);
	p->sys_busy_s = get_num(c, o, "sys_busy_s", 0);
	p->cpu_ns_per_op = get_num(c, o, "cpu_ns_per_op", 0);
}

/* Rebuild a histogram from [[bucket, count], ...]; the exact sums are not stored, so
 * sum and sum of squares are derived from the stored mean and deviation. */
static struct hist *load_hist(struct jload *c, const json_t *a, const struct row_lat *l)
{
	struct hist *h;
	size_t i;
	const json_t *pair;

	if (!a || json_is_null(a))
		return NULL;
	if (!json_is_array(a)) {
		jfail(c, "latency.histogram", "expected an array");
		return NULL;
	}
	h = malloc(sizeof(*h));
	if (!h) {
		jfail(c, "latency.histogram", "out of memory");
		return NULL;
	}
	hist_init(h);
	json_array_foreach(a, i, pair) {
		json_int_t b, n;

		if (json_unpack((json_t *)pair, "[II]", &b, &n) < 0 || b < 0 ||
		    b >= HIST_NBUCKETS || n < 0) {
			jfail(c, "latency.histogram", "expected [bucket, count] pairs");
			free(h);
			return NULL;
		}
		h->b[b] += (uint64_t)n;
		h->n += (uint64_t)n;
	}
	if (h->n) {
		double m = l->mean_ns, sd = l->sd_ns;

		h->min = l->min_ns;
		h->max = l->max_ns;
		h->sum = (uint64_t)llround(m * (double)h->n);
		h->sumsq = (unsigned __int128)((sd * sd + m * m) * (double)h->n);
	}
	return h;
}

static void load_lat(struct jload *c, const json_t *o, struct row_lat *l)
{
	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		jfail(c, "latency", "expected an object");
		return;
	}
	l->valid = 1;
	l->n = get_u64(c, o, "n");
	l->mean_ns = get_num(c, o, "mean_ns", 0);
	l->sd_ns = get_num(c, o, "sd_ns", 0);
	l->min_ns = get_u64(c, o, "min_ns");
	l->p50_ns = get_u64(c, o, "p50_ns");
	l->p90_ns = get_u64(c, o, "p90_ns");
	l->p99_ns = get_u64(c, o, "p99_ns");
	l->p999_ns = get_u64(c, o, "p999_ns");
	l->max_ns = get_u64(c, o, "max_ns");
	l->hist = load_hist(c, json_object_get(o, "histogram"), l);
}

static unsigned load_flags(struct jload *c, const json_t *a)
{
	unsigned flags = 0;
	size_t i;
	const json_t *v;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a)) {
		jfail(c, "flags", "expected an array");
		return 0;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			jfail(c, "flags", "expected flag names");
			return flags;
		}
		/* names this version does not know are dropped */
		for (unsigned k = 0; k < NFLAGS; k++)
			if (result_flag_name(1u << k) &&
			    strcmp(json_string_value(v), result_flag_name(1u << k)) == 0)
				flags |= 1u << k;
	}
	return flags;
}

static void load_metrics(struct jload *c, const json_t *a, struct row *w)
{
	size_t i;
	const json_t *m;

	if (!a || json_is_null(a))
		return;
	if (!json_is_array(a)) {
		jfail(c, "metrics", "expected an array");
		return;
	}
	json_array_foreach(a, i, m) {
		const json_t *n = json_object_get(m, "name"), *u = json_object_get(m, "unit");

		if (!json_is_object(m) || !json_is_string(n) || (u && !json_is_string(u) &&
								 !json_is_null(u))) {
			jfail(c, "metrics", "expected {\"name\", \"value\", \"unit\"} objects");
			return;
		}
		if (row_add_metric(w, json_string_value(n), get_num(c, m, "value", NAN),
				   json_is_string(u) ? json_string_value(u) : NULL) < 0) {
			jfail(c, "metrics", "out of memory");
			return;
		}
	}
}

static void load_row(struct jload *c, struct run *r, const json_t *o)
{
	struct row *w = run_add_row(r, "", "");

	if (!w) {
		jfail(c, "", "out of memory");
		return;
	}
	get_str(c, o, "workload", &w->workload);
	get_str(c, o, "phase", &w->phase);
	w->repeat = (unsigned)get_u64(c, o, "repeat");
	get_kv(c, o, "params", &w->params);
	w->bytes = get_u64(c, o, "bytes");
	w->ops = get_u64(c, o, "ops");
	w->elapsed_ns = get_u64(c, o, "elapsed_ns");
	w->buffered_ns = get_u64(c, o, "buffered_ns");
	w->durable_ns = get_u64(c, o, "durable_ns");
	w->rate = get_num(c, o, "rate", NAN);
	get_str(c, o, "rate_unit", &w->rate_unit);
	load_cpu(c, json_object_get(o, "cpu"), &w->cpu);
	load_lat(c, json_object_get(o, "latency"), &w->lat);
	w->cache_pct = get_num(c, o, "cache_pct", -1);
	w->cache_dropped = get_bool(c, o, "cache_dropped", 0);
	w->flags = load_flags(c, json_object_get(o, "flags"));
	get_str(c, o, "error", &w->error);
	get_str(c, o, "note", &w->note);
	load_metrics(c, json_object_get(o, "metrics"), w);
}

static struct run *run_from_json(const json_t *root, char *errbuf, unsigned long errlen)
{
	struct jload c = { errbuf, errlen, 0, "" };
	const json_t *tool = json_object_get(root, "tool");
	const json_t *sv = json_object_get(root, "schema_version");
	const json_t *rows, *o;
	struct run *r;
	char where[32];
	size_t i;

	if (!json_is_object(root) || !json_is_string(tool) ||
	    strcmp(json_string_value(tool), "iobattery") != 0 || !json_is_integer(sv) ||
	    json_integer_value(sv) < 1) {
		snprintf(errbuf, errlen, "not an iobattery result");
		return NULL;
	}
	if (json_integer_value(sv) > RESULT_SCHEMA_VERSION) {
		snprintf(errbuf, errlen, "schema_version %lld is newer than this version reads "
			 "(%d): upgrade iobattery", (long long)json_integer_value(sv),
			 RESULT_SCHEMA_VERSION);
		return NULL;
	}
	rows = json_object_get(root, "rows");
	if (rows && !json_is_array(rows)) {
		snprintf(errbuf, errlen, "'rows': expected an array");
		return NULL;
	}
	r = run_new("");
	if (!r) {
		snprintf(errbuf, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	r->schema_version = (int)json_integer_value(sv);
	get_str(&c, root, "id", &r->id);
	get_str(&c, root, "label", &r->label);
	get_str(&c, root, "workload", &r->workload);
	get_str(&c, root, "command_line", &r->command_line);
	o = json_object_get(root, "status");
	if (o && !json_is_integer(o) && !json_is_null(o))
		jfail(&c, "status", "expected an integer");
	r->status = json_is_integer(o) ? (int)json_integer_value(o) : 0;
	r->flags = (get_bool(&c, root, "incomplete", 0) ? RUN_INCOMPLETE : 0) |
		   (get_bool(&c, root, "imported", 0) ? RUN_IMPORTED : 0);
	get_str(&c, root, "error", &r->error);
	get_kv(&c, root, "options", &r->options);
	load_env(&c, json_object_get(root, "env"), &r->env);
	json_array_foreach(rows, i, o) {
		if (c.failed)
			break;
		snprintf(where, sizeof(where), "rows[%zu]", i);
		c.where = where;
		if (!json_is_object(o))
			jfail(&c, "", "expected an object");
		else
			load_row(&c, r, o);
	}
	if (c.failed) {
		run_free(r);
		return NULL;
	}
	return r;
}

struct run *out_json_load(const char *text, char *errbuf, unsigned long errlen)
{
	json_error_t jerr;
	json_t *root;
	struct run *r;

	root = json_loads(text ? text : "", 0, &jerr);
	if (!root) {
		snprintf(errbuf, errlen, "malformed JSON at line %d column %d: %s", jerr.line,
			 jerr.column, jerr.text);
		return NULL;
	}
	r = run_from_json(root, errbuf, errlen);
	json_decref(root);
	return r;
}

struct run *out_json_load_file(const char *path, char *errbuf, unsigned long errlen)
{
	json_error_t jerr;
	json_t *root;
	struct run *r;

	root = json_load_file(path, 0, &jerr);
	if (!root) {
		if (jerr.line < 1)	/* could not open or read the file */
			snprintf(errbuf, errlen, "%s", jerr.text);
		else
			snprintf(errbuf, errlen, "malformed JSON at line %d column %d: %s",
				 jerr.line, jerr.column, jerr.text);
		return NULL;
	}
	r = run_from_json(root, errbuf, errlen);
	json_decref(root);
	return r;
}
