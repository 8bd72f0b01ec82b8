/* result_json.c - the JSON form of a run (jansson): the dump/load pair that the JSON
 * formatter, the store, the comparisons and the importers use. docs/results-schema.md
 * describes the document; every member name is a key of the tables in result_keys*.c.
 * Loading stores every figure as written and recomputes nothing; dumping a loaded run
 * gives the same text back. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/rfile.h"
#include "core/textsafe.h"
#include "core/units.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_canon.h"
#include "stats/result_json.h"
#include "stats/result_json_ranks.h"
#include "stats/result_keys.h"
#include "stats/result_sys_json.h"

#define JSON_FLAGS	(JSON_INDENT(2) | JSON_REAL_PRECISION(15))

#define NFLAGS 32u	/* bits of row->flags; result_flag_name() names the known ones */

#define RESULT_JSON_MAX_BYTES	(1u << 30)	/* a result file larger than this is refused */

/* ---- dumping ---- */

/* Builders that never return NULL on bad input (NULL string, NaN): they give null. A
 * failed allocation makes set() fail, which the callers count. */
static json_t *jstr(const char *s)
{
	json_t *v;
	char *fixed;

	if (!s)
		return json_null();
	if (textsafe_utf8_valid(s))
		return json_string(s);
	/* JSON is UTF-8: a Latin-1 file name or label keeps its bytes as the characters of
	 * their Latin-1 reading instead of losing the run */
	fixed = textsafe_utf8_fix(s);
	v = fixed ? json_string(fixed) : NULL;
	free(fixed);
	return v;
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
	for (size_t i = 0; i < l->n; i++) {
		char *key = textsafe_utf8_valid(l->v[i].key) ? NULL :
			    textsafe_utf8_fix(l->v[i].key);

		set(o, key ? key : l->v[i].key, jstr(l->v[i].value), bad);
		free(key);
	}
	return o;
}

static json_t *env_to_json(const struct env *e, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, RK_ENV_TOOL_VERSION, jstr(e->tool_version), bad);
	set(o, RK_ENV_DATE, jstr(e->date), bad);
	set(o, RK_ENV_HOST, jstr(e->host), bad);
	set(o, RK_ENV_OS, jstr(e->os), bad);
	set(o, RK_ENV_KERNEL, jstr(e->kernel), bad);
	set(o, RK_ENV_ARCH, jstr(e->arch), bad);
	set(o, RK_ENV_CPU_MODEL, jstr(e->cpu_model), bad);
	set(o, RK_ENV_NCPU, e->ncpu ? jint(e->ncpu) : json_null(), bad);
	set(o, RK_ENV_RAM_BYTES, e->ram_bytes ? jint(e->ram_bytes) : json_null(), bad);
	set(o, RK_ENV_TARGET, jstr(e->target), bad);
	set(o, RK_ENV_FS_TYPE, jstr(e->fs_type), bad);
	set(o, RK_ENV_MOUNT_OPTS, jstr(e->mount_opts), bad);
	set(o, RK_ENV_MOUNT_POINT, jstr(e->mount_point), bad);
	set(o, RK_ENV_DEVICE, jstr(e->device), bad);
	set(o, RK_ENV_DEVICE_MODEL, jstr(e->device_model), bad);
	set(o, RK_ENV_ROTATIONAL, e->rotational < 0 ? json_null() : json_boolean(e->rotational),
	    bad);
	set(o, RK_ENV_SCHEDULER, jstr(e->scheduler), bad);
	set(o, RK_ENV_VIRTUALIZED, e->virtualized < 0 ? json_null() :
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
	set(o, RK_CPU_USER_S, jreal(c->user_s), bad);
	set(o, RK_CPU_SYS_S, jreal(c->sys_s), bad);
	set(o, RK_CPU_PROC_PCT, jreal(c->proc_pct), bad);
	set(o, RK_CPU_SYS_BUSY_PCT, jreal(c->sys_busy_pct), bad);
	set(o, RK_CPU_SYS_BUSY_S, jreal(c->sys_busy_s), bad);
	set(o, RK_CPU_NS_PER_OP, jreal(c->cpu_ns_per_op), bad);
	set(o, RK_CPU_WALL_S, c->wall_s > 0 ? jreal(c->wall_s) : json_null(), bad);
	set(o, RK_CPU_OPS, c->ops ? jint(c->ops) : json_null(), bad);
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
	set(o, RK_LAT_N, jint(l->n), bad);
	set(o, RK_LAT_MEAN_NS, jreal(l->mean_ns), bad);
	set(o, RK_LAT_SD_NS, jreal(l->sd_ns), bad);
	set(o, RK_LAT_MIN_NS, jint(l->min_ns), bad);
	set(o, RK_LAT_P50_NS, jint(l->p50_ns), bad);
	set(o, RK_LAT_P90_NS, jint(l->p90_ns), bad);
	set(o, RK_LAT_P99_NS, jint(l->p99_ns), bad);
	set(o, RK_LAT_P999_NS, jint(l->p999_ns), bad);
	set(o, RK_LAT_MAX_NS, jint(l->max_ns), bad);
	set(o, RK_LAT_HISTOGRAM, hist_to_json(l->hist, bad), bad);
	return o;
}

static json_t *row_to_json(const struct row *w, int *bad)
{
	json_t *o = json_object(), *flags, *metrics;

	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, RK_ROW_WORKLOAD, jstr(w->workload), bad);
	set(o, RK_ROW_PHASE, jstr(w->phase), bad);
	set(o, RK_ROW_REPEAT, jint(w->repeat), bad);
	set(o, RK_ROW_PARAMS, kv_to_json(&w->params, bad), bad);
	set(o, RK_ROW_BYTES, jint(w->bytes), bad);
	set(o, RK_ROW_OPS, jint(w->ops), bad);
	set(o, RK_ROW_ELAPSED_NS, jint(w->elapsed_ns), bad);
	set(o, RK_ROW_BUFFERED_NS, w->buffered_ns ? jint(w->buffered_ns) : json_null(), bad);
	set(o, RK_ROW_DURABLE_NS, w->durable_ns ? jint(w->durable_ns) : json_null(), bad);
	set(o, RK_ROW_RATE, jreal(w->rate), bad);
	set(o, RK_ROW_RATE_UNIT, jstr(w->rate_unit), bad);
	set(o, RK_ROW_CPU, cpu_to_json(&w->cpu, bad), bad);
	set(o, RK_ROW_LATENCY, lat_to_json(&w->lat, bad), bad);
	set(o, RK_ROW_CACHE_PCT, w->cache_pct < 0 ? json_null() : jreal(w->cache_pct), bad);
	set(o, RK_ROW_CACHE_DROPPED, json_boolean(w->cache_dropped), bad);
	flags = json_array();
	for (unsigned i = 0; flags && i < NFLAGS; i++)
		if ((w->flags & (1u << i)) && result_flag_name(1u << i))
			push(flags, json_string(result_flag_name(1u << i)), bad);
	set(o, RK_ROW_FLAGS, flags, bad);
	set(o, RK_ROW_ERROR, jstr(w->error), bad);
	set(o, RK_ROW_NOTE, jstr(w->note), bad);
	metrics = json_array();
	for (size_t i = 0; metrics && i < w->nmetrics; i++) {
		json_t *m = json_object();

		if (m) {
			set(m, RK_METRIC_NAME, jstr(w->metrics[i].name), bad);
			set(m, RK_METRIC_VALUE, jreal(w->metrics[i].value), bad);
			set(m, RK_METRIC_UNIT, jstr(w->metrics[i].unit), bad);
		}
		push(metrics, m, bad);
	}
	set(o, RK_ROW_METRICS, metrics, bad);
	*bad += result_json_ranks_row(o, w);	/* several ranks only */
	set(o, RK_ROW_SYSTEM, rsys_to_json(w->sys), bad);
	set(o, RK_ROW_SERIES, rseries_to_json(w->series), bad);
	return o;
}

static json_t *run_to_json(const struct run *r)
{
	json_t *o = json_object(), *rows;
	int bad = 0;

	if (!o)
		return NULL;
	set(o, RK_RUN_SCHEMA_VERSION, json_integer(r->schema_version ? r->schema_version :
					      RESULT_SCHEMA_VERSION), &bad);
	set(o, RK_RUN_TOOL, json_string("iobattery"), &bad);
	set(o, RK_RUN_ID, jstr(r->id), &bad);
	set(o, RK_RUN_LABEL, jstr(r->label), &bad);
	set(o, RK_RUN_WORKLOAD, jstr(r->workload), &bad);
	set(o, RK_RUN_COMMAND_LINE, jstr(r->command_line), &bad);
	set(o, RK_RUN_STATUS, json_integer(r->status), &bad);
	set(o, RK_RUN_INCOMPLETE, json_boolean(r->flags & RUN_INCOMPLETE), &bad);
	set(o, RK_RUN_IMPORTED, json_boolean(r->flags & RUN_IMPORTED), &bad);
	set(o, RK_RUN_ERROR, jstr(r->error), &bad);
	set(o, RK_RUN_OPTIONS, kv_to_json(&r->options, &bad), &bad);
	set(o, RK_RUN_ENV, env_to_json(&r->env, &bad), &bad);
	rows = json_array();
	for (size_t i = 0; rows && i < r->nrows; i++)
		push(rows, row_to_json(r->rows[i], &bad), &bad);
	set(o, RK_RUN_ROWS, rows, &bad);
	bad += result_json_ranks_run(o, r);	/* several ranks only */
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

char *result_json_dump(const struct run *run)
{
	json_t *o = run_to_json(run);
	char digest[RESULT_DIGEST_LEN];
	char *s;

	if (!o)
		return NULL;
	/* the digest over everything above (docs/methodology.md, "Self-checking results") */
	if (result_canon_digest(o, digest) < 0 ||
	    json_object_set_new(o, RK_RUN_DIGEST, json_string(digest)) < 0) {
		json_decref(o);
		return NULL;
	}
	s = json_dumps(o, JSON_FLAGS);
	json_decref(o);
	return s;
}

/* ---- loading ---- */

/* Load context: the first problem found wins. */
struct jload {
	char *err;
	unsigned long errlen;
	unsigned flags;			/* RESULT_LOAD_* */
	int failed;
	const char *where;		/* "env", "rows[3]" ... */
	const char *sub;		/* a member object of where ("cpu") or "" */
};

static void jfail(struct jload *c, const char *key, const char *what)
{
	if (c->failed++)
		return;
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "'%s%s%s%s%s': %s", c->where,
			 *c->where && (*c->sub || *key) ? "." : "", c->sub,
			 *c->sub && *key ? "." : "", key, what);
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

/* A string member that must be there and not be empty (the row's workload and phase, the
 * run's id): what every reader of a run may take for granted. Checked once the object is
 * read, so that a member of the wrong type is named first. */
static void require(struct jload *c, const char *key, const char *value)
{
	if (!value || !*value)
		jfail(c, key, "missing (required)");
}

/* An integer from 0 to max; 0 when null or absent. */
static uint64_t get_uint(struct jload *c, const json_t *o, const char *key, uint64_t max)
{
	const json_t *v = json_object_get(o, key);
	char why[64];

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		jfail(c, key, "expected a non-negative integer");
		return 0;
	}
	if ((uint64_t)json_integer_value(v) > max) {
		snprintf(why, sizeof(why), "out of range (at most %llu)", (unsigned long long)max);
		jfail(c, key, why);
		return 0;
	}
	return (uint64_t)json_integer_value(v);
}

static uint64_t get_u64(struct jload *c, const json_t *o, const char *key)
{
	return get_uint(c, o, key, (uint64_t)INT64_MAX);
}

/* A number (integer or real) from lo to hi; def when null or absent. Every figure is
 * range-checked here, so that what loads can be printed: the formatters' bounds. */
static double get_num(struct jload *c, const json_t *o, const char *key, double def,
		      double lo, double hi)
{
	const json_t *v = json_object_get(o, key);
	char why[80];
	double d;

	if (!v || json_is_null(v))
		return def;
	if (!json_is_number(v)) {
		jfail(c, key, "expected a number");
		return def;
	}
	d = json_number_value(v);
	if (!(d >= lo && d <= hi)) {
		snprintf(why, sizeof(why), "out of range (%g to %g)", lo, hi);
		jfail(c, key, why);
		return def;
	}
	return d;
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
		jfail(c, RK_RUN_ENV, "expected an object");
		return;
	}
	c->where = RK_RUN_ENV;
	get_str(c, o, RK_ENV_TOOL_VERSION, &e->tool_version);
	get_str(c, o, RK_ENV_DATE, &e->date);
	get_str(c, o, RK_ENV_HOST, &e->host);
	get_str(c, o, RK_ENV_OS, &e->os);
	get_str(c, o, RK_ENV_KERNEL, &e->kernel);
	get_str(c, o, RK_ENV_ARCH, &e->arch);
	get_str(c, o, RK_ENV_CPU_MODEL, &e->cpu_model);
	e->ncpu = (unsigned)get_uint(c, o, RK_ENV_NCPU, UINT_MAX);
	e->ram_bytes = get_u64(c, o, RK_ENV_RAM_BYTES);
	get_str(c, o, RK_ENV_TARGET, &e->target);
	get_str(c, o, RK_ENV_FS_TYPE, &e->fs_type);
	get_str(c, o, RK_ENV_MOUNT_OPTS, &e->mount_opts);
	get_str(c, o, RK_ENV_MOUNT_POINT, &e->mount_point);
	get_str(c, o, RK_ENV_DEVICE, &e->device);
	get_str(c, o, RK_ENV_DEVICE_MODEL, &e->device_model);
	e->rotational = get_bool(c, o, RK_ENV_ROTATIONAL, -1);
	get_str(c, o, RK_ENV_SCHEDULER, &e->scheduler);
	e->virtualized = get_bool(c, o, RK_ENV_VIRTUALIZED, -1);
	c->where = "";
}

json_t *result_json_env(const struct env *e, int *bad)
{
	return env_to_json(e, bad);
}

int result_json_env_load(const json_t *o, struct env *e, char *err, size_t len)
{
	struct jload c = { err, len, 0, 0, "", "" };

	load_env(&c, o, e);
	return c.failed ? -1 : 0;
}

static void load_cpu(struct jload *c, const json_t *o, struct row_cpu *p)
{
	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		jfail(c, RK_ROW_CPU, "expected an object");
		return;
	}
	p->valid = 1;
	c->sub = RK_ROW_CPU;
	p->user_s = get_num(c, o, RK_CPU_USER_S, 0, 0, RJ_MAX_SECS);
	p->sys_s = get_num(c, o, RK_CPU_SYS_S, 0, 0, RJ_MAX_SECS);
	p->proc_pct = get_num(c, o, RK_CPU_PROC_PCT, 0, 0, RJ_MAX_PCT);
	p->sys_busy_pct = get_num(c, o, RK_CPU_SYS_BUSY_PCT, 0, 0, 100);
	p->sys_busy_s = get_num(c, o, RK_CPU_SYS_BUSY_S, 0, 0, RJ_MAX_SECS);
	p->cpu_ns_per_op = get_num(c, o, RK_CPU_NS_PER_OP, 0, 0, RJ_MAX_FIG);
	p->wall_s = get_num(c, o, RK_CPU_WALL_S, 0, 0, RJ_MAX_SECS);
	p->ops = get_u64(c, o, RK_CPU_OPS);
	c->sub = "";
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
		jfail(c, RK_LAT_HISTOGRAM, "expected an array");
		return NULL;
	}
	h = malloc(sizeof(*h));
	if (!h) {
		jfail(c, RK_LAT_HISTOGRAM, "out of memory");
		return NULL;
	}
	hist_init(h);
	json_array_foreach(a, i, pair) {
		json_int_t b, n;

		if (json_unpack((json_t *)pair, "[II]", &b, &n) < 0 || b < 0 ||
		    b >= HIST_NBUCKETS || n < 0) {
			jfail(c, RK_LAT_HISTOGRAM,
			      "expected [bucket, count] pairs");
			free(h);
			return NULL;
		}
		if (h->n + (uint64_t)n < h->n) {
			jfail(c, RK_LAT_HISTOGRAM,
			      "out of range (the counts pass 2^64)");
			free(h);
			return NULL;
		}
		h->b[b] += (uint64_t)n;
		h->n += (uint64_t)n;
	}
	if (h->n) {
		double m = l->mean_ns, sd = l->sd_ns, sq;

		h->min = l->min_ns;
		h->max = l->max_ns;
		/* mean and deviation are bounded on load, their products with n are not:
		 * saturate instead of casting out of range */
		h->sum = units_dtou64(m * (double)h->n, 1);
		sq = (sd * sd + m * m) * (double)h->n;
		h->sumsq = sq < 3.4e38 ? (unsigned __int128)sq : ~(unsigned __int128)0;
	}
	return h;
}

static void load_lat(struct jload *c, const json_t *o, struct row_lat *l)
{
	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		jfail(c, RK_ROW_LATENCY, "expected an object");
		return;
	}
	l->valid = 1;
	c->sub = RK_ROW_LATENCY;
	l->n = get_u64(c, o, RK_LAT_N);
	l->mean_ns = get_num(c, o, RK_LAT_MEAN_NS, 0, 0, RJ_MAX_NS);
	l->sd_ns = get_num(c, o, RK_LAT_SD_NS, 0, 0, RJ_MAX_NS);
	l->min_ns = get_u64(c, o, RK_LAT_MIN_NS);
	l->p50_ns = get_u64(c, o, RK_LAT_P50_NS);
	l->p90_ns = get_u64(c, o, RK_LAT_P90_NS);
	l->p99_ns = get_u64(c, o, RK_LAT_P99_NS);
	l->p999_ns = get_u64(c, o, RK_LAT_P999_NS);
	l->max_ns = get_u64(c, o, RK_LAT_MAX_NS);
	if (!(c->flags & RESULT_LOAD_NO_HIST))
		l->hist = load_hist(c, json_object_get(o, RK_LAT_HISTOGRAM), l);
	c->sub = "";
}

static unsigned load_flags(struct jload *c, const json_t *a)
{
	unsigned flags = 0;
	size_t i;
	const json_t *v;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a)) {
		jfail(c, RK_ROW_FLAGS, "expected an array");
		return 0;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			jfail(c, RK_ROW_FLAGS, "expected flag names");
			return flags;
		}
		/* names this version does not know are dropped */
		flags |= result_flag_of(json_string_value(v));
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
		jfail(c, RK_ROW_METRICS, "expected an array");
		return;
	}
	json_array_foreach(a, i, m) {
		const json_t *n = json_object_get(m, RK_METRIC_NAME);
		const json_t *u = json_object_get(m, RK_METRIC_UNIT);

		if (!json_is_object(m) || !json_is_string(n) || (u && !json_is_string(u) &&
								 !json_is_null(u))) {
			jfail(c, RK_ROW_METRICS,
			      "expected {\"name\", \"value\", \"unit\"} objects");
			return;
		}
		if (row_add_metric(w, json_string_value(n),
				   get_num(c, m, RK_METRIC_VALUE, NAN, -RJ_MAX_FIG, RJ_MAX_FIG),
				   json_is_string(u) ? json_string_value(u) : NULL) < 0) {
			jfail(c, RK_ROW_METRICS, "out of memory");
			return;
		}
	}
}

static void load_sys(struct jload *c, const json_t *o, struct row *w)
{
	char msg[160];

	if (rsys_from_json(json_object_get(o, RK_ROW_SYSTEM), &w->sys, msg, sizeof(msg)) < 0)
		jfail(c, RK_ROW_SYSTEM, msg);
	else if (rseries_from_json(json_object_get(o, RK_ROW_SERIES), &w->series, msg,
				   sizeof(msg)) < 0)
		jfail(c, RK_ROW_SERIES, msg);
}

static void load_row(struct jload *c, struct run *r, const json_t *o)
{
	struct row *w = run_add_row(r, "", "");

	if (!w) {
		jfail(c, "", "out of memory");
		return;
	}
	get_str(c, o, RK_ROW_WORKLOAD, &w->workload);
	get_str(c, o, RK_ROW_PHASE, &w->phase);
	w->repeat = (unsigned)get_uint(c, o, RK_ROW_REPEAT, UINT_MAX);
	get_kv(c, o, RK_ROW_PARAMS, &w->params);
	w->bytes = get_u64(c, o, RK_ROW_BYTES);
	w->ops = get_u64(c, o, RK_ROW_OPS);
	w->elapsed_ns = get_u64(c, o, RK_ROW_ELAPSED_NS);
	w->buffered_ns = get_u64(c, o, RK_ROW_BUFFERED_NS);
	w->durable_ns = get_u64(c, o, RK_ROW_DURABLE_NS);
	w->rate = get_num(c, o, RK_ROW_RATE, NAN, 0, RJ_MAX_FIG);
	get_str(c, o, RK_ROW_RATE_UNIT, &w->rate_unit);
	load_cpu(c, json_object_get(o, RK_ROW_CPU), &w->cpu);
	load_lat(c, json_object_get(o, RK_ROW_LATENCY), &w->lat);
	w->cache_pct = get_num(c, o, RK_ROW_CACHE_PCT, -1, 0, 100);
	w->cache_dropped = get_bool(c, o, RK_ROW_CACHE_DROPPED, 0);
	w->flags = load_flags(c, json_object_get(o, RK_ROW_FLAGS));
	get_str(c, o, RK_ROW_ERROR, &w->error);
	get_str(c, o, RK_ROW_NOTE, &w->note);
	load_metrics(c, json_object_get(o, RK_ROW_METRICS), w);
	require(c, RK_ROW_WORKLOAD, w->workload);
	require(c, RK_ROW_PHASE, w->phase);
	if (!c->failed && result_json_ranks_row_load(o, w, c->err, c->errlen) < 0)
		c->failed++;
	load_sys(c, o, w);
}

static struct run *run_from_json(const json_t *root, unsigned flags, char *errbuf,
				 unsigned long errlen)
{
	struct jload c = { errbuf, errlen, flags, 0, "", "" };
	const json_t *tool = json_object_get(root, RK_RUN_TOOL);
	const json_t *sv = json_object_get(root, RK_RUN_SCHEMA_VERSION);
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
	rows = json_object_get(root, RK_RUN_ROWS);
	if (rows && !json_is_array(rows)) {
		snprintf(errbuf, errlen, "'" RK_RUN_ROWS "': expected an array");
		return NULL;
	}
	r = run_new("");
	if (!r) {
		snprintf(errbuf, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	r->schema_version = (int)json_integer_value(sv);
	get_str(&c, root, RK_RUN_ID, &r->id);
	get_str(&c, root, RK_RUN_LABEL, &r->label);
	get_str(&c, root, RK_RUN_WORKLOAD, &r->workload);
	get_str(&c, root, RK_RUN_COMMAND_LINE, &r->command_line);
	o = json_object_get(root, RK_RUN_STATUS);
	if (o && !json_is_integer(o) && !json_is_null(o))
		jfail(&c, RK_RUN_STATUS, "expected an integer");
	else if (json_is_integer(o) && (json_integer_value(o) < 0 || json_integer_value(o) > 255))
		jfail(&c, RK_RUN_STATUS, "out of range (an exit status, 0 to 255)");
	r->status = json_is_integer(o) && !c.failed ? (int)json_integer_value(o) : 0;
	r->flags = (get_bool(&c, root, RK_RUN_INCOMPLETE, 0) ? RUN_INCOMPLETE : 0) |
		   (get_bool(&c, root, RK_RUN_IMPORTED, 0) ? RUN_IMPORTED : 0);
	get_str(&c, root, RK_RUN_ERROR, &r->error);
	get_kv(&c, root, RK_RUN_OPTIONS, &r->options);
	load_env(&c, json_object_get(root, RK_RUN_ENV), &r->env);
	if (!c.failed && result_json_ranks_run_load(root, r, errbuf, errlen) < 0)
		c.failed++;
	json_array_foreach(rows, i, o) {
		if (c.failed)
			break;
		snprintf(where, sizeof(where), RK_RUN_ROWS "[%zu]", i);
		c.where = where;
		if (!json_is_object(o))
			jfail(&c, "", "expected an object");
		else
			load_row(&c, r, o);
	}
	c.where = "";
	require(&c, RK_RUN_ID, r->id);
	if (c.failed) {
		run_free(r);
		return NULL;
	}
	return r;
}

struct run *result_json_load(const char *text, char *errbuf, unsigned long errlen)
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
	r = run_from_json(root, 0, errbuf, errlen);
	json_decref(root);
	return r;
}

struct run *result_json_load_file(const char *path, char *errbuf, unsigned long errlen)
{
	return result_json_load_file_flags(path, 0, errbuf, errlen);
}

struct run *result_json_load_file_flags(const char *path, unsigned flags, char *errbuf,
					unsigned long errlen)
{
	json_error_t jerr;
	json_t *root;
	struct run *r;
	char *text;
	size_t len;
	int rc;

	/* a regular file only (a FIFO would block), read whole, then parsed as text */
	rc = rfile_read(path, 0, RESULT_JSON_MAX_BYTES, &text, &len);
	if (rc < 0) {
		snprintf(errbuf, errlen, "%s", rfile_strerror(rc));
		return NULL;
	}
	if (strlen(text) != len) {
		snprintf(errbuf, errlen, "malformed JSON: a NUL byte at offset %zu",
			 strlen(text));
		free(text);
		return NULL;
	}
	/* the text goes as soon as it is a tree, before the run is built from the tree:
	 * the three are never held at once */
	root = json_loads(text, 0, &jerr);
	free(text);
	if (!root) {
		snprintf(errbuf, errlen, "malformed JSON at line %d column %d: %s", jerr.line,
			 jerr.column, jerr.text);
		return NULL;
	}
	r = run_from_json(root, flags, errbuf, errlen);
	json_decref(root);
	return r;
}
